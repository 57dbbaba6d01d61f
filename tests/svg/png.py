#!/usr/bin/env python3
"""png.py - what the preview tests ask of an SVG and of the PNGs its
renderers make, with Python's standard library only.

  png.py mark IN.svg NAME OUT.svg   the dots titled NAME (one a panel) drawn
                                    large in pure green, on top of the rest
  png.py where IMAGE.png            the centre of the green pixels in each
                                    half (front, side): "FX FY SX SY"
  png.py colours IMAGE.png RGB...   for each colour (rrggbb), how many pixels
                                    are within 40 of it in every channel
  png.py same A.png B.png           exit 0 when both have the same pixels
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "http://www.w3.org/2000/svg"


def decode(path):
    """(width, height, rows): rows of (r, g, b) tuples; 8-bit RGB or RGBA,
    not interlaced (what rsvg-convert and chromium write)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = head
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit(f"{path}: PNG depth {depth} colour type {ctype} interlace {interlace}: not read")
    bpp = 4 if ctype == 6 else 3
    raw, stride, prev, rows, i = zlib.decompress(idat), w * bpp, bytearray(w * bpp), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([composite(line[x:x + bpp]) for x in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def composite(px):
    """A pixel over white."""
    if len(px) == 3:
        return tuple(px)
    a = px[3]
    return tuple((v * a + 255 * (255 - a)) // 255 for v in px[:3])


def mark(src, name, out):
    ET.register_namespace("", SVG)
    tree = ET.parse(src)
    root = tree.getroot()
    found = 0
    for group in list(root.iter(f"{{{SVG}}}g")):
        for c in list(group.findall(f"{{{SVG}}}circle")):
            t = c.find(f"{{{SVG}}}title")
            if t is not None and t.text == name:
                group.remove(c)
                c.set("r", "5")
                c.set("fill", "#00ff00")
                root.append(c)
                found += 1
    if found != 2:
        sys.exit(f"{src}: {found} dots titled {name}, not 2")
    tree.write(out)


def where(path):
    w, _, rows = decode(path)
    out = []
    for lo, hi in ((0, w // 2), (w // 2, w)):
        n = sx = sy = 0
        for y, row in enumerate(rows):
            for x in range(lo, hi):
                r, g, b = row[x]
                if g > 200 and r < 90 and b < 90:
                    n, sx, sy = n + 1, sx + x, sy + y
        if not n:
            sys.exit(f"{path}: no green pixels in x {lo}..{hi}")
        out += [sx / n, sy / n]
    print(" ".join(f"{v:.1f}" for v in out))


def colours(path, wanted):
    _, _, rows = decode(path)
    rgb = [tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)) for c in wanted]
    counts = [0] * len(rgb)
    for row in rows:
        for px in row:
            for k, want in enumerate(rgb):
                if all(abs(px[i] - want[i]) <= 40 for i in range(3)):
                    counts[k] += 1
    print(" ".join(map(str, counts)))


def main(argv):
    if len(argv) == 5 and argv[1] == "mark":
        mark(argv[2], argv[3], argv[4])
    elif len(argv) == 3 and argv[1] == "where":
        where(argv[2])
    elif len(argv) >= 4 and argv[1] == "colours":
        colours(argv[2], argv[3:])
    elif len(argv) == 4 and argv[1] == "same":
        sys.exit(0 if decode(argv[2]) == decode(argv[3]) else 1)
    else:
        sys.exit(__doc__)


main(sys.argv)

#!/bin/sh
# magic.sh add MAGIC FILE | magic.sh remove MAGIC: puts FILE (src/packaging/rtmfs.magic)
# into file(1)'s local magic MAGIC (Debian: /etc/magic) as one marked block,
# or takes that block out again (make install-magic, make uninstall).
#   add     appends the block; does nothing when the same block is there and
#           replaces it when its content changed.  When MAGIC does not end in
#           a newline, one is added and the begin line says so.
#   remove  deletes the block and nothing else (and that newline), so MAGIC
#           is byte for byte what it was before "add"; no block: nothing.
# MAGIC is rewritten in place (cat >), so its owner and mode stay.
set -eu
BEGIN='# >>> rtmfs magic (make install-magic; make uninstall removes it)'
BEGIN_NL="$BEGIN, newline added"
END='# <<< rtmfs magic'

cmd=${1:-} magic=${2:-}
case $cmd in add) [ $# -eq 3 ] ;; remove) [ $# -eq 2 ] ;; *) false ;; esac ||
    { echo "usage: magic.sh add MAGIC FILE | magic.sh remove MAGIC" >&2; exit 2; }

# b, e: the lines of the block's begin and end markers in MAGIC (b empty: none)
b=$( { [ -f "$magic" ] && grep -n -x -F -e "$BEGIN" -e "$BEGIN_NL" "$magic"; } |
     head -n 1 | cut -d: -f1) || true
if [ -n "$b" ]; then
    e=$(tail -n +"$b" "$magic" | grep -n -x -F -e "$END" | head -n 1 | cut -d: -f1) || true
    [ -n "$e" ] || { echo "magic.sh: $magic: \"$BEGIN\" without \"$END\"" >&2; exit 1; }
    e=$((b + e - 1))
    if [ "$cmd" = add ] && sed -n "$((b + 1)),$((e - 1))p" "$magic" | cmp -s - "$3"; then
        echo "magic.sh: $magic already has the rtmfs block"
        exit 0
    fi
    # take the block out (for add: an old one, replaced below)
    tmp=$(mktemp) && trap 'rm -f "$tmp"' EXIT
    sed "${b},${e}d" "$magic" >"$tmp"
    if [ "$(sed -n "${b}p" "$magic")" = "$BEGIN_NL" ] && [ "$e" -eq "$(wc -l <"$magic")" ]; then
        truncate -s -1 "$tmp"           # the newline add put after a last line without one
    fi
    cat "$tmp" >"$magic"
    [ "$cmd" = add ] || echo "magic.sh: removed the rtmfs block from $magic"
fi
[ "$cmd" = add ] || exit 0

begin=$BEGIN
if [ -s "$magic" ] && [ -n "$(tail -c 1 "$magic")" ]; then
    begin="
$BEGIN_NL"
fi
mkdir -p "$(dirname "$magic")"
{ printf '%s\n' "$begin"; cat "$3"; printf '%s\n' "$END"; } >>"$magic"
echo "magic.sh: added the rtmfs block to $magic"

#!/usr/bin/env bash
# deb.sh BUILD: make deb's recipe.  Builds the binary package
# BUILD/rtmfs_VERSION-1_ARCH.deb (VERSION from src/base/version.h) with dpkg-deb:
#
#   - the programs are built apart, in BUILD/deb/build, with Debian's flags
#     (dpkg-buildflags, hardening=+all) and never with SANITIZE, so the
#     package is the same whichever BUILD it was asked from;
#   - make install DESTDIR=BUILD/deb/src/debian/rtmfs PREFIX=/usr stages the
#     files, then made as Debian wants them: binaries stripped, man pages
#     gzipped, copyright (machine-readable, from LICENSE) and
#     changelog.Debian.gz in /usr/share/doc/rtmfs/, lintian's overrides
#     (src/packaging/lintian-overrides, each with its reason), md5sums;
#   - dpkg-shlibdeps and dpkg-gencontrol run in BUILD/deb/src, a minimal
#     source folder whose debian/control is src/packaging/control (the top
#     level of the tree has no debian/).
#
# The package has no maintainer scripts: dpkg's triggers update the MIME
# database, and nothing is written outside the package's own files.
# DEB_MAINTAINER="Name <email>" replaces the Maintainer field.
set -euo pipefail
umask 022
cd "$(dirname "$0")/../.."
B=${1:?usage: deb.sh BUILD}
MK=${MAKE:-make}
die() { echo "make deb: $*" >&2; exit 1; }
for t in dpkg-deb dpkg-shlibdeps dpkg-gencontrol dpkg-buildflags; do
    command -v "$t" >/dev/null || die "$t is missing (apt-get install dpkg-dev)"
done

UPSTREAM=$(sed -n 's/^#define RTMFS_VERSION "\(.*\)"$/\1/p' src/base/version.h)
[ -n "$UPSTREAM" ] || die "no RTMFS_VERSION in src/base/version.h"
VERSION=$UPSTREAM-1
ARCH=$(dpkg --print-architecture)
DEB=$B/rtmfs_${VERSION}_$ARCH.deb
# the date of the changelog entry (and of the files dpkg-deb packs): the
# last commit's, so that the same tree gives the same package
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || stat -c %Y src/base/version.h)
fi
export SOURCE_DATE_EPOCH

case $B in /*) W=$B/deb ;; *) W=$PWD/$B/deb ;; esac
SRC=$W/src ROOT=$W/src/debian/rtmfs
rm -rf "$SRC"
mkdir -p "$W/build" "$SRC/debian"

# --- build and stage ------------------------------------------------------
flags() { DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1"; }
"$MK" --no-print-directory BUILD="$W/build" SANITIZE= CFLAGS="$(flags CFLAGS)" \
    CPPFLAGS="$(flags CPPFLAGS)" LDFLAGS="$(flags LDFLAGS)" all
"$MK" --no-print-directory BUILD="$W/build" SANITIZE= PREFIX=/usr DESTDIR="$ROOT" install >/dev/null

for f in "$ROOT"/usr/bin/* "$ROOT"/usr/lib/rtmfs/rtmfs-fbx; do
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$f"
done
find "$ROOT/usr/share/man" -type f -name '*.[1-9]' -exec gzip -9n {} +

DOC=$ROOT/usr/share/doc/rtmfs
install -d "$DOC"
maint=${DEB_MAINTAINER:-$(sed -n 's/^Maintainer: //p' src/packaging/control)}
{
    echo "rtmfs ($VERSION) unstable; urgency=medium"
    echo
    echo "  * rtmfs $UPSTREAM, packaged from its source tree by make deb."
    echo
    echo " -- $maint  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} >"$SRC/debian/changelog"
gzip -9n <"$SRC/debian/changelog" >"$DOC/changelog.Debian.gz"
# copyright: DEP-5, with LICENSE's holder and text (MIT is "Expat" there)
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: rtmfs"
    echo
    echo "Files: *"
    echo "Copyright: $(sed -n 's/^Copyright (c) //p' LICENSE | head -1)"
    echo "License: Expat"
    echo
    echo "License: Expat"
    sed '1,/^Copyright/d' LICENSE | sed '/./,$!d' | sed 's/^$/./; s/^/ /'
} >"$DOC/copyright"
chmod 644 "$DOC"/*
# lintian's overrides, each with its reason
install -D -m 644 src/packaging/lintian-overrides "$ROOT/usr/share/lintian/overrides/rtmfs"

# --- control: dependencies from the binaries, then the fields -------------
cp src/packaging/control "$SRC/debian/control"
(
    cd "$SRC"
    install -d debian/rtmfs/DEBIAN
    # (not rtmcat: a static program, it needs no shared library; rtmfs-fbx
    # brings libassimp)
    dpkg-shlibdeps -edebian/rtmfs/usr/bin/rtmfs -edebian/rtmfs/usr/bin/rtmgen \
        -edebian/rtmfs/usr/lib/rtmfs/rtmfs-fbx
    dpkg-gencontrol -prtmfs -Pdebian/rtmfs ${DEB_MAINTAINER:+"-DMaintainer=$DEB_MAINTAINER"}
)
(cd "$ROOT" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$ROOT/DEBIAN/md5sums"
chmod 644 "$ROOT/DEBIAN/control" "$ROOT/DEBIAN/md5sums"

# every file dated no later than the changelog entry
find "$ROOT" -newermt "@$SOURCE_DATE_EPOCH" -print0 |
    xargs -0r touch --no-dereference --date="@$SOURCE_DATE_EPOCH"
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$DEB" >/dev/null
echo "make deb: $DEB"

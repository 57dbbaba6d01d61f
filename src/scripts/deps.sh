#!/usr/bin/env bash
# Installs what rtmfs needs to build and test on Debian/Ubuntu: as root with
# apt-get, otherwise prints the exact command to run.  "deps.sh ci" adds the
# checkers CI runs (clang's fuzzer and sanitizers, valgrind) and the clients
# the views are tested with (blender for anim.bvh; xmllint, rsvg-convert,
# chromium and python3 for preview.svg), and what tests/cli/package.sh
# checks the Debian package with (dpkg-dev, lintian, shared-mime-info with
# mimetype and gio, bash-completion).  bindfs is in the base list: the
# blind-source test (tests/mount/blind.sh) makes a FUSE SOURCE with it;
# libassimp-dev is for rtmfs-fbx, which reads FBX (src/fbx/).
set -euo pipefail
PKGS=(gcc make pkg-config liblzo2-dev libjansson-dev libcmocka-dev libfuse3-dev libsqlite3-dev fuse3 attr file bindfs
    libassimp-dev)
[ "${1:-}" = ci ] && PKGS+=(clang libclang-rt-14-dev valgrind blender python3 libxml2-utils librsvg2-bin chromium
    dpkg-dev lintian shared-mime-info libfile-mimeinfo-perl libglib2.0-bin bash-completion)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all build dependencies are installed"
    exit 0
fi
cmd="apt-get install -y ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $cmd
else
    echo "deps: missing packages; run as root:"
    echo "  sudo apt-get update && sudo $cmd"
    exit 1
fi

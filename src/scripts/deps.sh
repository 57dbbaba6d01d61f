#!/usr/bin/env bash
# Installs what rtmfs needs to build and test on Debian/Ubuntu: as root with
# apt-get, otherwise prints the exact command to run.  "deps.sh ci" adds the
# checkers CI runs (clang's fuzzer and sanitizers, valgrind) and the clients
# the views are tested with (blender for anim.bvh; assimp-testmodels, other
# tools' glTF and FBX files; xmllint, rsvg-convert,
# chromium and python3 for preview.svg), and what tests/cli/package.sh
# checks the Debian package with (dpkg-dev, lintian, shared-mime-info with
# mimetype and gio, bash-completion).  bindfs is in the base list: the
# blind-source test (tests/mount/blind.sh) makes a FUSE SOURCE with it;
# libassimp-dev is for rtmfs-fbx, which reads FBX (src/fbx/).
# CI also gets Khronos's glTF-Validator for anim.glb (tests/cli/glb.sh):
# Debian's nodejs and npm when the node and npm commands are missing, then
# the gltf-validator package from npm into TOOLS, outside the repository,
# when it is not there yet.
set -euo pipefail
TOOLS=${RTMFS_TEST_TOOLS:-/usr/local/lib/rtmfs-test-tools}
PKGS=(gcc make pkg-config liblzo2-dev libjansson-dev libcmocka-dev libfuse3-dev libsqlite3-dev fuse3 attr file bindfs
    libassimp-dev)
[ "${1:-}" = ci ] && PKGS+=(clang libclang-rt-14-dev valgrind blender python3-numpy python3 assimp-testmodels libxml2-utils librsvg2-bin chromium
    dpkg-dev lintian shared-mime-info libfile-mimeinfo-perl libglib2.0-bin bash-completion)
[ "${1:-}" = ci ] && ! { command -v node && command -v npm; } >/dev/null && PKGS+=(nodejs npm)

# The validator, from npm, once the packages are in.
validator() {
    [ "${1:-}" = ci ] || return 0
    [ -f "$TOOLS/node_modules/gltf-validator/package.json" ] && return 0
    if [ "$(id -u)" -ne 0 ] && ! { mkdir -p "$TOOLS" && [ -w "$TOOLS" ]; } 2>/dev/null; then
        echo "deps: missing gltf-validator; run as root:"
        echo "  sudo npm install --prefix $TOOLS gltf-validator"
        return 1
    fi
    echo "deps: installing gltf-validator into $TOOLS"
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund gltf-validator
}
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all build dependencies are installed"
    validator "${1:-}"
    exit
fi
cmd="apt-get install -y ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $cmd
    validator "${1:-}"
else
    echo "deps: missing packages; run as root:"
    echo "  sudo apt-get update && sudo $cmd"
    exit 1
fi

# shellcheck shell=bash
# bench_lib.sh - what the mount benchmarks share, sourced after
# tests/lib/mount.sh: timing, the page cache, the counters of the rtmfs of
# the last fg_mount (RTMFS_PID), small figures, and the whole-install tree.
now() { date +%s%N; }
ms() { echo $((($(now) - $1) / 1000000)); }
# Drops the page cache when allowed (root), so "cold" means cold on disk too.
drop() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true; }
# timed CMD...: its time in ms (its output and status dropped).
timed() { local s; s=$(now); "$@" >/dev/null 2>&1 || true; ms "$s"; }
# cold CMD...: the same on a dropped page cache.
cold() { drop; timed "$@"; }
io() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$RTMFS_PID/io" 2>/dev/null || echo 0; }
cpu_ms() { awk '{ print ($14 + $15) * 10 }' "/proc/$RTMFS_PID/stat" 2>/dev/null || echo 0; }
hwm() { awk '$1 == "VmHWM:" {print $2}' "/proc/$RTMFS_PID/status"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "x%.2f", a / b; else print "-" }'; }
# mb BYTES [DECIMALS]: megabytes (10^6 bytes).
mb() { awk -v b="$1" -v d="${2:-0}" 'BEGIN { printf "%.*f", d, b / 1e6 }'; }
grep_bones() { grep -rli lefthand --include=bones.txt "$1"; }

# install_tree: the whole-install tree of rtmgen -I (RTMFS_BENCH_INSTALL
# animations in archives, default 20000; kept in RTMFS_BENCH_TREE, default
# /var/tmp/rtmfs-bench-install-N), generated once per N (about a minute for
# 20,000) with its summary (rtmgen -I's, "bytes:" and all) in
# $TREE/.complete.  Sets N, TREE and bytes, the install's size.
install_tree() {
    N=${RTMFS_BENCH_INSTALL:-20000}
    TREE=${RTMFS_BENCH_TREE:-/var/tmp/rtmfs-bench-install-$N}
    if ! grep -q '^config_bytes:' "$TREE/.complete" 2>/dev/null; then
        rm -rf "$TREE"
        echo "generating the install tree ($N animations) in $TREE..."
        "${RTMGEN:-${BUILD:-build}/rtmgen}" -I "$N" "$TREE" > "$TREE.summary"
        mv "$TREE.summary" "$TREE/.complete"
    fi
    # shellcheck disable=SC2034  # for the scripts that source this
    bytes=$(awk '$1 == "bytes:" {print $2}' "$TREE/.complete")
}

# first_walk SRC OPTS CMD...: a cold CMD over a fresh mount of SRC at $M
# (OPTS: more rtmfs options; the index is $IX when set, else a new one
# each call: a first mount; CMD walks $M/$SUB when SUB is set); sets W to
# "ms read_bytes cpu_ms peak_kib".
IXN=0
first_walk() {
    local src=$1 opts=$2 ix=${IX:-}; shift 2
    IXN=$((IXN + 1))
    [ -n "$ix" ] || ix=$T/ix.$IXN.sqlite
    drop
    # shellcheck disable=SC2086
    fg_mount "$src" "$M" -o "cache_size=$CACHE,index=$ix" $opts || exit 1
    drop
    local r0 c0 s t
    r0=$(io read_bytes) c0=$(cpu_ms) s=$(now)
    "$@" "$M${SUB:+/$SUB}" >/dev/null 2>&1 || true
    t=$(ms "$s")
    # shellcheck disable=SC2034  # for the scripts that source this
    W="$t $(( $(io read_bytes) - r0 )) $(( $(cpu_ms) - c0 )) $(hwm)"
    do_umount "$M"
}
# native_walk CMD...: its time on a dropped page cache.
native_walk() {
    drop
    local s; s=$(now)
    "$@" >/dev/null 2>&1 || true
    ms "$s"
}

# native_tree: the native tree of the same shape as the install's mods 00
# and 01 (after install_tree): folders and names as the mount lists them,
# bones.txt with its content, every other file empty; built once, kept
# beside the install tree.  Sets NATIVE, and anims_all, anims_native and
# scale: the install's animations, the native tree's, and their ratio.
native_tree() {
    NATIVE=$TREE.native2
    [ -f "$NATIVE/.complete" ] || native_build
    anims_all=$(awk '$1 == "rtm:" || $1 == "loose:" { n += $2 } END { print n }' "$TREE/.complete")
    anims_native=$(find "$NATIVE" -name bones.txt | wc -l)
    # shellcheck disable=SC2034  # for the scripts that source this
    scale=$(awk -v a="$anims_all" -v s="$anims_native" 'BEGIN { printf "%.4f", s ? a / s : 0 }')
}
native_build() {
    echo "building the native same-shape tree of 2 mods in $NATIVE..."
    rm -rf "$NATIVE"
    fg_mount "$TREE" "$M" -o "cache_size=${CACHE:-64M},noindex" || exit 1
    local mod
    for mod in @mod_00 @mod_01; do
        (cd "$M" && find "$mod" -type d) | sed "s|^|$NATIVE/|" | xargs -d '\n' mkdir -p
        (cd "$M" && find "$mod" -type f ! -name bones.txt) |
            (cd "$NATIVE" && xargs -d '\n' touch)
        (cd "$M" && find "$mod" -type f -name bones.txt -print0 | xargs -0 cp --parents -t "$NATIVE")
    done
    do_umount "$M"
    touch "$NATIVE/.complete"
}

# corpus_copies DIR: 200 copies of the shared corpus's files in DIR (the
# corpus read in name order, twice over), and a native copy of their views
# in DIR.native; 1 when there is no corpus.
corpus_copies() {
    have_corpus || return 1
    local dir=$1 i=0 f files
    mkdir -p "$dir"
    mapfile -t files < <(find "$SHARED/corpus" -name '*.rtm' | LC_ALL=C sort)
    for f in "${files[@]}" "${files[@]}"; do
        [ $i -ge 200 ] && break
        i=$((i + 1))
        cp "$f" "$dir/$(printf %03d $i)_${f##*/}"
    done
    fg_mount "$dir" "$M" -o noindex || exit 1
    cp -r "$M" "$dir.native" 2>/dev/null || true
    do_umount "$M"
}

# mount.sh - what every script that mounts rtmfs shares: a temporary
# directory, mounts and background processes that the EXIT trap always ends,
# the check that FUSE works here (which under CI=true fails instead of
# skipping), and the checks that compare an animation's folder with rtmcat.
# Sourced after NAME is set (it names the temporary directory).
# shellcheck source=tests/lib/check.sh
. "$(dirname "${BASH_SOURCE[0]}")/check.sh"
T=$(mktemp -d "/tmp/rtmfs-${NAME:-test}.XXXXXX")
chmod 755 "$T"
# the persistent index of every mount a test makes: its own, never the
# user's ~/.cache (tests that test the index say where it goes)
export XDG_CACHE_HOME=$T/xdg-cache
MOUNTS=()     # mount points to unmount
PIDS=()       # background processes to end (readers, writers)
RTMFS_PID=    # the rtmfs of the last fg_mount
AS=()         # a command prefix for rtmfs (e.g. setpriv)

cleanup() {
    local m p
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    for m in "${MOUNTS[@]}"; do
        if grep -qs " $m fuse" /proc/mounts; then
            fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
        fi
    done
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT

mounted() { grep -qs " $1 fuse.rtmfs " /proc/mounts; }

fuse_usable() {
    [ -c /dev/fuse ] && [ -r /dev/fuse ] && [ -w /dev/fuse ] && command -v fusermount3 >/dev/null
}

# need_fuse WHAT: exits the script with a skip (or, under CI, a failure)
# when /dev/fuse or fusermount3 cannot be used.
need_fuse() {
    [ -x "$RTMFS" ] || { fail "$RTMFS not built"; exit 1; }
    fuse_usable && return 0
    skip_or_fail "no /dev/fuse" "$1 (/dev/fuse or fusermount3 not usable here)"
    exit $((FAILS > 0))
}

# A mount that does not come up: on the first try, on a machine where FUSE
# is refused (a container), a skip; otherwise a failure.
mount_failed() {
    local what=$1 err=$2
    if [ ${#MOUNTS[@]} -eq 1 ] && grep -qiE 'fuse|permission|not permitted' "$err"; then
        skip_or_fail "no /dev/fuse" "$what: cannot mount FUSE here: $(head -c 300 "$err")"
        exit $((FAILS > 0))
    fi
    fail "$what: $(head -c 300 "$err")"
    return 1
}

# do_mount SRC MNT [options...]: mounts as a daemon and checks that it is up.
do_mount() {
    local src=$1 mnt=$2
    shift 2
    mkdir -p "$mnt"
    MOUNTS+=("$mnt")
    "${AS[@]}" "$RTMFS" "$src" "$mnt" "$@" 2>"$T/mount.err" || { mount_failed "mount $src" "$T/mount.err"; return 1; }
    mounted "$mnt" || { fail "$mnt not in /proc/mounts"; return 1; }
}

# fg_mount SRC MNT [options...]: runs rtmfs -f in the background (its pid in
# RTMFS_PID, its stderr in $T/rtmfs.err) and waits up to 10 s for the mount,
# looking every 2 ms (the benchmarks time it).
fg_mount() {
    local src=$1 mnt=$2
    shift 2
    mkdir -p "$mnt"
    MOUNTS+=("$mnt")
    "${AS[@]}" "$RTMFS" -f "$src" "$mnt" "$@" 2>"$T/rtmfs.err" &
    RTMFS_PID=$!
    local i
    for ((i = 0; i < 5000; i++)); do
        mounted "$mnt" && return 0
        kill -0 "$RTMFS_PID" 2>/dev/null || break
        sleep 0.002
    done
    mount_failed "rtmfs -f $src" "$T/rtmfs.err"
}

# do_umount MNT: unmounts and waits until it is gone (and for a fg_mount's
# rtmfs to exit).
do_umount() {
    fusermount3 -u "$1" || fail "fusermount3 -u $1"
    local _
    for _ in $(seq 50); do
        if ! mounted "$1"; then
            [ -n "$RTMFS_PID" ] && { wait "$RTMFS_PID" || fail "rtmfs exit status $?"; RTMFS_PID=; }
            return 0
        fi
        sleep 0.1
    done
    fail "$1 still mounted"
}

# Compares every view of one animation with rtmcat: size and bytes.
# With a third argument "quick", bytes only for the fixed views and the
# first file of each folder.  rtmcat writes the views compared in one run
# (-o), and one process compares them all (same_bytes).
# states.txt is listed but not compared: it depends on where the file lies
# (its game path) and on the configs around it, not on the bytes, and src
# is often a loose copy of an archived dir (tests/mount/states.sh checks it).
check_anim() {
    local src=$1 dir=$2 mode=${3:-full} list want=$T/check_anim.want paths differs
    list=$("$RTMCAT" "$src" | awk '$2 != "states.txt" {print $1, $2}')
    # every stat size at once (one stat for the whole folder, not one a file)
    local bad
    bad=$(paste -d ' ' <(printf '%s\n' "$list") \
                       <(cd "$dir" && cut -d ' ' -f 2 <<<"$list" | xargs -d '\n' stat -c %s -- 2>&1) |
          awk '$1 != $3 {print $2 ": stat size " $3 " != " $1; exit}')
    [ -z "$bad" ] || { fail "$dir/$bad"; return; }
    # the views compared: all, or (quick) those outside folders and the
    # first of each folder
    mapfile -t paths < <(awk -v quick="$([ "$mode" = full ] || echo 1)" '
        { n = split($2, p, "/") }
        !quick || n == 1 || !seen[p[1]]++ { print $2 }' <<<"$list")
    rm -rf "$want"
    "$RTMCAT" -o "$want" "$src" "${paths[@]}" || { fail "$dir: rtmcat -o fails"; return; }
    differs=$(same_bytes "$want" "$dir" "${paths[@]}")
    [ -z "$differs" ] || { fail "$dir/$differs: bytes differ from rtmcat"; return; }
    # the folder lists what rtmcat lists: its files, and its folders (and
    # states.txt, which rtmcat lists only for a file named .rtm)
    local want_ls got
    want_ls=$(cut -d ' ' -f 2 <<<"$list" | sed 's|/.*||' | sort -u | tr '\n' ' ')
    got=$(ls "$dir" | grep -vx states.txt | tr '\n' ' ')
    [ "$got" = "$want_ls" ] || fail "$dir lists $got, not $want_ls"
    local folder
    for folder in frames joints tracks; do
        [ -d "$dir/$folder" ] || continue
        [ "$(ls "$dir/$folder" | wc -l)" = "$(grep -c " $folder/" <<<"$list")" ] \
            || fail "$dir/$folder: wrong count"
    done
}

# same_bytes A B PATH...: the first PATH whose bytes under A and under B
# differ (or that one of them cannot read); nothing when all are the same.
same_bytes() {
    perl -e 'my ($a, $b) = (shift, shift);
        sub slurp { open(my $f, "<", $_[0]) or return undef; binmode $f; local $/; my $d = <$f>;
                    return defined $d ? $d : "" }
        for my $p (@ARGV) {
            my ($x, $y) = (slurp("$a/$p"), slurp("$b/$p"));
            if (!defined $x || !defined $y || $x ne $y) { print "$p\n"; exit }
        }' "$@"
}

# error.txt holds rtmcat's message without "rtmcat: ", run from SOURCE.
check_broken() {
    local srcdir=$1 rel=$2 dir=$3
    # Damage past the names (BMTR's arrays, an archive entry's LZSS stream)
    # shows at the first full read (rtmfs-views(7), ERROR.TXT): until then
    # the views are listed, and that read fails.  A loose plain file's
    # damage shows in the listing at once.
    if [ "$(ls "$dir")" != error.txt ] &&
       { [ ! -f "$srcdir/$rel" ] || [ "$(head -c 4 "$srcdir/$rel")" = BMTR ]; }; then
        ls "$dir" | grep -qx bones.txt || { fail "$dir: neither error.txt nor views"; return; }
        cat "$dir/header.txt" >/dev/null 2>&1 && { fail "$dir: a full read worked"; return; }
    fi
    # (the kernel is told to forget the listing from a thread of its own)
    within_1s lists_only_error "$dir" || { fail "$dir: expected only error.txt"; return; }
    local want
    want=$(cd "$srcdir" && "$RTMCAT" "$rel" 2>&1 >/dev/null | sed 's/^rtmcat: //')
    [ "$(cat "$dir/error.txt")" = "$want" ] || fail "$dir/error.txt: '$(cat "$dir/error.txt")' != '$want'"
    [ "$(stat -c %s "$dir/error.txt")" = "$(wc -c < "$dir/error.txt")" ] || fail "error.txt size"
}

# sizes_read DIR: every file below DIR read to its end, in one process;
# prints "differs: PATH stat S read R" for each whose stat size is not the
# bytes read (the first 20), then "files N bad B".  Returns 1 when B > 0.
sizes_read() {
    find "$1" -type f -print0 | perl -0 -e 'my ($n, $bad) = (0, 0);
        while (my $path = <STDIN>) {
            chomp $path; $n++;
            my $size = -s $path // -1;
            my ($got, $buf) = (-1, "");
            if (open(my $f, "<", $path)) {
                binmode $f; $got = 0;
                while (my $k = sysread($f, $buf, 65536)) { $got += $k }
            }
            next if $got == $size;
            print "differs: $path stat $size read $got\n" if $bad++ < 20;
        }
        print "files $n bad $bad\n"; exit($bad ? 1 : 0)'
}

# Whether folder $1 lists error.txt and nothing else.
lists_only_error() { [ "$(ls "$1")" = error.txt ]; }

# Whether a path is gone from the mount: no stat, and not in its listing.
absent() { [ ! -e "$1" ] && ! ls "$(dirname "$1")" | grep -qx "$(basename "$1")"; }

# blender_results LOG: the "ok: " and "FAIL: " lines a tests/blender script
# wrote to LOG, as this script's own; its "blender: " lines shown.
blender_results() {
    local line
    while IFS= read -r line; do
        case $line in
            "ok: "*) ok "blender: ${line#ok: }" ;;
            "FAIL: "*) fail "blender: ${line#FAIL: }" ;;
            "blender: "*) echo "$line" ;;
        esac
    done <"$1"
}

# Waits up to one second for a condition (a command) to hold.
within_1s() {
    for _ in $(seq 20); do "$@" && return 0; sleep 0.05; done
    return 1
}

# read_across_rewrite VIEW OLD NEW TARGET: opens VIEW and reads 4 KiB, then
# overwrites TARGET (a source file) with NEW and reads the rest from rtmfs:
# the whole must equal OLD, or the read must fail; never a mix.
read_across_rewrite() {
    local v=$1 old=$2 new=$3 target=$4
    exec 3<"$v"
    dd bs=4096 count=1 <&3 >"$T/part1" 2>/dev/null
    cat "$new" > "$target"
    sleep 1.2
    sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null   # the rest must come from rtmfs
    if cat <&3 >"$T/part2" 2>/dev/null; then
        cmp -s <(cat "$T/part1" "$T/part2") "$old" || fail "$v: an open file mixed two versions"
    fi
    exec 3<&-
}

#!/usr/bin/env bash
# watch.sh - changes in SOURCE show within a second even when inotify cannot
# keep up: an event queue that overflows (rtmfs stopped while 20,000 files
# appear and an animation is rewritten), inotify unavailable, and folders
# beyond the user's watch limit (both simulated through the watcher's test
# variables, so the machine's own limits are never touched).
NAME=watch
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
need_fuse "watch tests"
"$RTMGEN" "$T/gen" >/dev/null || { fail "rtmgen"; finish mount/watch; }
A=$T/gen/walk.rtm B=$T/gen/wave_v3.rtm

header_is() { cmp -s "$1" <("$RTMCAT" "$2" header.txt); }

# Lost events: the kernel's queue (fs.inotify.max_queued_events, 16384 by
# default) overflows while rtmfs is stopped.
check_overflow() {
    local s=$T/ov m=$T/mnt_ov
    mkdir -p "$s/sub"
    cp "$A" "$s/hot.rtm"; cp "$A" "$s/sub/deep.rtm"
    fg_mount "$s" "$m" || return
    header_is "$m/hot.rtm/header.txt" "$A" && header_is "$m/sub/deep.rtm/header.txt" "$A" \
        || fail "overflow: first reads"
    local max; max=$(cat /proc/sys/fs/inotify/max_queued_events 2>/dev/null || echo 16384)
    kill -STOP "$RTMFS_PID"
    (cd "$s" && seq -f 'flood%06g' 1 $((max + 4000)) | xargs touch)
    cat "$B" > "$s/hot.rtm"                         # in place: its event is lost
    cat "$B" > "$s/sub/deep.rtm"
    kill -CONT "$RTMFS_PID"
    local i
    for i in $(seq 60); do
        header_is "$m/hot.rtm/header.txt" "$B" && header_is "$m/sub/deep.rtm/header.txt" "$B" && break
        sleep 0.05
    done
    if [ "$i" -lt 60 ]; then
        ok "after an inotify queue overflow, rewrites show within 3 s"
    else
        fail "after an inotify queue overflow, a rewrite did not show within 3 s"
    fi
    # the watch thread reads the whole queue before its overflow event: on
    # a loaded machine that may come after the rewrites showed
    for i in $(seq 200); do
        grep -q overflowed "$T/rtmfs.err" && break
        sleep 0.05
    done
    case $(grep -c overflowed "$T/rtmfs.err") in
        1) ok "the overflow is logged once" ;;
        0) fail "the overflow is not logged" ;;
        *) fail "the overflow is logged more than once" ;;
    esac
    do_umount "$m"
}

# changes_show S M WHAT: rewrites and replaces files of S and checks that M
# shows them within a second.
changes_show() {
    local s=$1 m=$2 what=$3 before=$FAILS
    header_is "$m/hot.rtm/header.txt" "$A" && header_is "$m/sub/deep.rtm/header.txt" "$A" \
        || fail "$what: first reads"
    cat "$B" > "$s/hot.rtm"
    cat "$B" > "$s/sub/deep.rtm"
    within_1s header_is "$m/hot.rtm/header.txt" "$B" || fail "$what: rewrite in SOURCE's root not seen"
    within_1s header_is "$m/sub/deep.rtm/header.txt" "$B" || fail "$what: rewrite in a folder not seen"
    cp "$A" "$s/sub/new.rtm"
    within_1s test -e "$m/sub/new.rtm/bones.txt" || fail "$what: an added file not seen"
    rm "$s/sub/new.rtm"
    within_1s absent "$m/sub/new.rtm" || fail "$what: a removed file still shown"
    block_ok "$before" "$what: changes show within 1 s"
}

check_unwatched() {
    local s=$T/un m=$T/mnt_un how
    for how in RTMFS_TEST_NO_INOTIFY=1 RTMFS_TEST_WATCH_LIMIT=1; do
        rm -rf "$s"; mkdir -p "$s/sub"
        cp "$A" "$s/hot.rtm"; cp "$A" "$s/sub/deep.rtm"
        export "${how?}"
        fg_mount "$s" "$m" || return
        unset RTMFS_TEST_NO_INOTIFY RTMFS_TEST_WATCH_LIMIT
        changes_show "$s" "$m" "$how"
        case $(grep -c "cannot watch .* for changes" "$T/rtmfs.err") in
            1) ok "$how: said once on stderr" ;;
            0) fail "$how: nothing said" ;;
            *) fail "$how: said more than once" ;;
        esac
        do_umount "$m"
    done
}

check_overflow
check_unwatched
finish mount/watch

# shellcheck shell=bash
# damaged.sh - walks of a damaged tree (rtmgen -D) through a mount, shared
# by tests/mount/damaged.sh, tests/mount/stress.sh and
# tests/bench/bench_damaged.sh; sourced after tests/lib/mount.sh.
#
#   dmg_tree SRC N [SEED]    the tree (rtmgen -D) and SRC/churn/, the files
#                            the writer changes; SRC/damaged.tsv its manifest
#   dmg_writer_start SRC     a writer that keeps rewriting, truncating and
#                            renaming SRC/churn/'s files (DMG_WRITER its pid)
#   dmg_writer_stop
#   dmg_walk KIND MNT        one walk: du (du -a), ls (ls -lR), cat (find
#                            -type f | xargs -0 -n 200 cat), grep (grep -r),
#                            readers (4 parallel readers of every row's
#                            folder); the paths it met in $T/walk.met, its
#                            errors in $T/walk.err; 2 when it hung (a
#                            timeout of DMG_TIMEOUT s, default 120)
#   dmg_judge MNT            every error of the last walk classified: EIO
#                            where the animation's folder now lists only
#                            error.txt, ENOENT for a name gone (a view or
#                            views folder gone with its animation's views),
#                            anything under churn/ (the writer's, where ESTALE
#                            is documented too); the same two where the
#                            folder lists its views again
#                            (its failure forgotten) but fails its next full
#                            read and then lists error.txt (DMG_REFOUND,
#                            the lines in $T/walk.refound); any other is
#                            undocumented.  Sets DMG_EIO DMG_ENOENT
#                            DMG_CHURN DMG_BAD (and DMG_DEAD, 1
#                            when "Transport endpoint is not connected"), the
#                            bad ones in $T/walk.bad
#   dmg_met SRC MNT          "kind N, ..." of the manifest's rows the walk met
#   dmg_alive MNT PID        the process runs and the mount is in /proc/mounts
#   dmg_san FILE             the sanitizer reports of an rtmfs's stderr
#
# RTMFS_BIN, when set, is the rtmfs to mount with (make tsan's
# ThreadSanitizer build), the other programs staying $BUILD's.
# shellcheck disable=SC2034  # RTMFS and the DMG_ results are the sourcing script's
if [ -n "${RTMFS_BIN:-}" ]; then
    case $RTMFS_BIN in /*) RTMFS=$RTMFS_BIN ;; *) RTMFS=$PWD/$RTMFS_BIN ;; esac
fi
DMG_TIMEOUT=${DMG_TIMEOUT:-120}
export LC_ALL=C     # the tools' messages as dmg_judge reads them

dmg_tree() {
    local src=$1 n=$2 seed=${3:-1} man
    "$RTMGEN" -D "$n,$seed" "$src" > "$T/dmg.summary" || { fail "rtmgen -D $n,$seed"; return 1; }
    man=$src/damaged.tsv
    DMG_MAN=$man
    mkdir -p "$src/churn" "$T/churn"
    # the writer's material: a good and a damaged animation (head reads,
    # full parse fails), a good and a damaged archive, two model.cfg
    local good bad arc cfg badcfg
    good=$(awk -F'\t' '$2 == "good" && $3 ~ /v5 lzo/ && $1 !~ /\.pbo\// {print $1; exit}' "$man")
    bad=$(awk -F'\t' '$2 == "head-ok-full-fails" && $1 !~ /\.pbo\// {print $1; exit}' "$man")
    arc=$(awk -F'\t' '$2 == "pbo-ok" {print $1; exit}' "$man")
    cfg=$(awk -F'\t' '$2 == "modelcfg-ok" && $1 !~ /\.pbo\// {print $1; exit}' "$man")
    badcfg=$(awk -F'\t' '$2 == "modelcfg-fails" && $1 !~ /\.pbo\// {print $1; exit}' "$man")
    [ -n "$good" ] && [ -n "$bad" ] && [ -n "$arc" ] && [ -n "$cfg" ] && [ -n "$badcfg" ] ||
        { fail "the damaged tree lacks the writer's material"; return 1; }
    cp "$src/$good" "$T/churn/good.rtm"; cp "$src/$bad" "$T/churn/bad.rtm"
    cp "$src/$arc" "$T/churn/good.pbo"; head -c 3000 "$src/$arc" > "$T/churn/bad.pbo"
    cp "$src/$cfg" "$T/churn/good.cfg"; cp "$src/$badcfg" "$T/churn/bad.cfg"
    local f
    for f in hot.rtm cut.rtm ren_a.rtm; do cp "$T/churn/good.rtm" "$src/churn/$f"; done
    cp "$T/churn/good.pbo" "$src/churn/hot.pbo"; cp "$T/churn/good.cfg" "$src/churn/model.cfg"
    mkdir -p "$src/churn/mov_a"             # a folder renamed with its model.cfg
    cp "$T/churn/good.rtm" "$src/churn/mov_a/walk.rtm"; cp "$T/churn/good.cfg" "$src/churn/mov_a/model.cfg"
    DMG_SUMMARY=$(cat "$T/dmg.summary")
}

# One round of changes in SRC/churn: rewrites in place and by rename,
# truncation, renames and removals, a folder of an animation and its
# model.cfg renamed, and that model.cfg removed and put back.
dmg_churn() {
    local c=$1/churn i=$2 size
    if [ $((i % 2)) = 0 ]; then cat "$T/churn/good.rtm" > "$c/hot.rtm"
    else cp "$T/churn/bad.rtm" "$c/.t" && mv "$c/.t" "$c/hot.rtm"; fi
    size=$(stat -c %s "$T/churn/good.rtm")
    cp "$T/churn/good.rtm" "$c/cut.rtm" && truncate -s $(( (i * 7919) % size )) "$c/cut.rtm"
    if [ -e "$c/ren_a.rtm" ]; then mv "$c/ren_a.rtm" "$c/ren_b.rtm"; else mv "$c/ren_b.rtm" "$c/ren_a.rtm"; fi
    if [ $((i % 3)) = 0 ]; then cat "$T/churn/bad.pbo" > "$c/hot.pbo"
    else cp "$T/churn/good.pbo" "$c/.p" && mv "$c/.p" "$c/hot.pbo"; fi
    if [ $((i % 2)) = 0 ]; then cat "$T/churn/bad.cfg" > "$c/model.cfg"; else cat "$T/churn/good.cfg" > "$c/model.cfg"; fi
    if [ -e "$c/gone.rtm" ]; then rm "$c/gone.rtm"; else cp "$T/churn/bad.rtm" "$c/gone.rtm"; fi
    if [ -d "$c/mov_a" ]; then mv "$c/mov_a" "$c/mov_b"; else mv "$c/mov_b" "$c/mov_a"; fi
    local m; m=$(echo "$c"/mov_?)
    if [ $((i % 4)) = 0 ]; then rm -f "$m/model.cfg"; else cp "$T/churn/good.cfg" "$m/model.cfg"; fi
} 2>/dev/null

DMG_WRITER=
dmg_writer_start() {
    local src=$1
    # a bash of its own: a subshell killed before its first command runs
    # the script's EXIT trap (which removes $T)
    bash -c "$(declare -f dmg_churn); T='$T'"'; i=0; while :; do i=$((i + 1)); dmg_churn "$1" "$i"; sleep 0.02; done' \
        _ "$src" &
    DMG_WRITER=$!
    PIDS+=("$DMG_WRITER")
}
dmg_writer_stop() {
    [ -n "$DMG_WRITER" ] || return 0
    kill "$DMG_WRITER" 2>/dev/null
    wait "$DMG_WRITER" 2>/dev/null
    DMG_WRITER=
}

# A reader of every row's path in its share of the manifest (rows i, i +
# 4, ...): an animation's or archive's every file, a config's bytes.
dmg_reader() {
    local mnt=$1 man=$2 i=$3 p
    awk -F'\t' -v i="$i" '!/^#/ && NR % 4 == i {print $1}' "$man" | while IFS= read -r p; do
        case ${p,,} in
            *.rtm|*.pbo) find "$mnt/$p" -maxdepth 2 -type f -exec cat {} + >/dev/null 2>>"$T/walk.err.$i"
                         printf '%s\n' "$mnt/$p" ;;
            *)  # a config.bin shows as config.cpp (rtmfs(1), -o rapified)
                [[ ${p,,} == *config.bin && ! -e $mnt/$p ]] && p=${p%???}cpp
                cat "$mnt/$p" >/dev/null 2>>"$T/walk.err.$i"; printf '%s\n' "$mnt/$p" ;;
        esac
    done
}

dmg_walk() {
    local kind=$1 mnt=$2 rc=0 i
    : > "$T/walk.met"; : > "$T/walk.err"
    case $kind in
        du) timeout "$DMG_TIMEOUT" du -a "$mnt" 2>"$T/walk.err" | cut -f2- > "$T/walk.met"; rc=${PIPESTATUS[0]} ;;
        ls) timeout "$DMG_TIMEOUT" ls -lR --time-style=+%s --quoting-style=literal "$mnt" 2>"$T/walk.err" |
                awk '/^\// && /:$/ {d = substr($0, 1, length($0) - 1); print d; next}
                     NF >= 7 && d != "" {n = $0; for (k = 1; k <= 6; k++) sub(/^[^ ]+ +/, "", n); print d "/" n}' \
                > "$T/walk.met"
            rc=${PIPESTATUS[0]} ;;
        cat) timeout "$DMG_TIMEOUT" find "$mnt" -type f -print0 2>"$T/walk.err" > "$T/walk.list"
             rc=$?
             timeout "$DMG_TIMEOUT" xargs -0 -n 200 cat < "$T/walk.list" >/dev/null 2>>"$T/walk.err"
             [ $? = 124 ] && rc=124
             tr '\0' '\n' < "$T/walk.list" > "$T/walk.met" ;;
        grep) timeout "$DMG_TIMEOUT" grep -r -c lefthand "$mnt" 2>"$T/walk.err" | sed 's/:[0-9]*$//' > "$T/walk.met"
              rc=${PIPESTATUS[0]} ;;
        readers)
            local pids=()
            for i in 0 1 2 3; do
                : > "$T/walk.err.$i"
                timeout "$DMG_TIMEOUT" bash -c "$(declare -f dmg_reader); T='$T'; dmg_reader \"\$@\"" _ \
                    "$mnt" "$DMG_MAN" "$i" > "$T/walk.met.$i" &
                pids+=($!)
            done
            for i in 0 1 2 3; do wait "${pids[$i]}"; [ $? = 124 ] && rc=124; done
            cat "$T"/walk.met.[0-3] > "$T/walk.met"; cat "$T"/walk.err.[0-3] > "$T/walk.err" ;;
        *) fail "dmg_walk: no walk $kind"; return 1 ;;
    esac
    [ "$rc" = 124 ] && return 2
    return 0
}

# The nearest folder at or above path (relative to the mount) that is an
# animation's or an archive's.
dmg_owner() {
    local p=$1
    while [ -n "$p" ] && [ "$p" != . ]; do
        case ${p,,} in *.rtm|*.pbo) printf '%s' "$p"; return 0 ;; esac
        [[ $p == */* ]] || break
        p=${p%/*}
    done
    return 1
}

# Whether a folder lists only error.txt, within a second.
dmg_error_only() {
    local _
    for _ in $(seq 20); do [ "$(ls "$1" 2>/dev/null)" = error.txt ] && return 0; sleep 0.05; done
    return 1
}

# Whether an animation's folder whose failure was forgotten (its views
# listed again: the cache dropped it) fails its full read again and then
# lists only error.txt.
dmg_refound() {
    cat "$1/header.txt" >/dev/null 2>&1 && return 1
    dmg_error_only "$1"
}

dmg_judge() {
    local mnt=$1 line path msg rel owner
    DMG_EIO=0 DMG_ENOENT=0 DMG_CHURN=0 DMG_REFOUND=0 DMG_BAD=0 DMG_DEAD=0
    : > "$T/walk.bad"
    while IFS= read -r line; do
        msg=${line##*: }
        path=${line%: *}
        path=${path#*: }
        path=${path#cannot access }; path=${path#cannot read directory }
        path=${path#cannot open directory }; path=${path#reading directory }
        path=${path#\'}; path=${path%\'}
        rel=${path#"$mnt"/}
        [ "$path" != "$rel" ] || rel=
        if [ "$msg" = "Transport endpoint is not connected" ]; then
            DMG_DEAD=1 DMG_BAD=$((DMG_BAD + 1)); echo "$line" >> "$T/walk.bad"; continue
        fi
        case $rel in churn/*|churn) DMG_CHURN=$((DMG_CHURN + 1)); continue ;; esac
        owner=$(dmg_owner "$rel") || owner=
        case $msg in
            "Input/output error")
                if [ -n "$owner" ] && [ "$rel" != "$owner/error.txt" ] && dmg_error_only "$mnt/$owner"; then
                    DMG_EIO=$((DMG_EIO + 1)); continue
                fi ;;
            "No such file or directory")
                if [ -n "$rel" ] && [ ! -e "$path" ]; then DMG_ENOENT=$((DMG_ENOENT + 1)); continue; fi ;;
        esac
        # the same three once the folder's failure, forgotten, is found again
        case $msg in "Input/output error"|"No such file or directory")
            if [ -n "$owner" ] && [ "$rel" != "$owner" ] && dmg_refound "$mnt/$owner"; then
                DMG_REFOUND=$((DMG_REFOUND + 1)); echo "$line" >> "$T/walk.refound"; continue
            fi ;;
        esac
        DMG_BAD=$((DMG_BAD + 1))
        echo "$line" >> "$T/walk.bad"
    done < <(grep -v '^xargs: cat: exited with status' "$T/walk.err")
}

# "kind N, ..." of the manifest's rows whose path (or, for a config.bin,
# the name the mount shows it by) the last walk met, itself or below.
dmg_met() {
    local src=$1 mnt=$2
    awk -F'\t' -v m="$mnt/" '
        FNR == NR { p = $0; if (index(p, m) != 1) next; p = substr(p, length(m) + 1)
                    while (p != "") { if (p in met) break; met[p] = 1
                                      if (!sub(/\/[^\/]*$/, "", p)) break }
                    next }
        /^#/ { next }
        { p = $1; q = p; r = p; sub(/config\.bin$/, "config.cpp", q); sub(/config\.bin$/, "config.bin.cpp", r)
          if (!($2 in n)) { order[++k] = $2; n[$2] = 0 }
          if ((p in met) || (q in met) || (r in met)) n[$2]++ }
        END { s = ""; for (i = 1; i <= k; i++) s = s (i > 1 ? ", " : "") order[i] " " n[order[i]]; print s }
    ' "$T/walk.met" "$src/damaged.tsv"
}

dmg_alive() { kill -0 "$2" 2>/dev/null && mounted "$1"; }

dmg_san() {
    grep -E 'ERROR: (Address|Leak|Memory|Thread)Sanitizer|WARNING: ThreadSanitizer|runtime error:|SUMMARY: [A-Za-z]*Sanitizer' "$1"
}

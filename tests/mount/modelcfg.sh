#!/usr/bin/env bash
# modelcfg.sh - -o skeleton=MODEL.cfg[:CLASS]: a mount with a model.cfg's
# class shows what rtmcat -s shows (every view of a BMTR file), header.txt
# names the class; a wrong class fails the start with rtmcat's one line and
# a non-zero exit, before anything is mounted; the persistent index keys
# each class apart.
NAME=modelcfg
# shellcheck source=tests/lib/mount.sh
. "$(dirname "$0")/../lib/mount.sh"
S=$T/src M=$T/mnt
export LC_ALL=C

need_fuse "model.cfg skeleton mount tests"
mkdir -p "$S" "$M"
"$RTMGEN" "$S" >/dev/null || { fail "rtmgen"; exit 1; }
rm -f "$S/broken.rtm"
A=$S/run_v5.rtm
cat >"$T/model.cfg" <<'EOF'
class CfgSkeletons {
    class Base { skeletonInherit = ""; skeletonBones[] = { "pelvis", "", "spine", "pelvis" }; };
    class Man { skeletonInherit = "Base"; skeletonBones[] = { "spine1", "spine", "spine2", "spine1" }; };
    class Gun { skeletonBones[] = { "bolt", "" }; };
};
EOF

# the mount and rtmcat agree, views and sizes
do_mount "$S" "$M" -o "skeleton=$T/model.cfg:man" && {
    grep -qx "skeleton: $T/model.cfg:Man (model.cfg class, named) (3 of 66 bones composed with a parent)" \
        "$M/run_v5.rtm/header.txt" && ok "skeleton=model.cfg:man: header.txt names the class" ||
        fail "header.txt: $(grep '^skeleton' "$M/run_v5.rtm/header.txt")"
    before=$FAILS
    check_anim_with() {
        local size path
        while read -r size path; do
            [ "$(stat -c %s "$M/run_v5.rtm/$path")" = "$size" ] || { fail "$path: size != $size"; return; }
            case $path in */*) [[ $path == */000.* ]] || continue ;; esac
            cmp -s <("$RTMCAT" -s "$T/model.cfg:man" "$A" "$path") "$M/run_v5.rtm/$path" ||
                { fail "$path: bytes differ from rtmcat -s"; return; }
        done < <("$RTMCAT" -s "$T/model.cfg:man" "$A")
    }
    check_anim_with
    block_ok "$before" "skeleton=model.cfg:man: the views and sizes rtmcat -s gives"
    do_umount "$M"
}
# another class of the same file: another rendering, not the index's record
do_mount "$S" "$M" -o "skeleton=$T/model.cfg:gun" && {
    grep -q '^rest_pose: none' "$M/run_v5.rtm/header.txt" &&
        grep -q "^skeleton: $T/model.cfg:Gun (model.cfg class, named) (0 of 66" "$M/run_v5.rtm/header.txt" &&
        ok "skeleton=model.cfg:gun: its own views, not Man's from the index" ||
        fail "skeleton=model.cfg:gun: $(head -c 600 "$M/run_v5.rtm/header.txt")"
    do_umount "$M"
}

# a wrong class: rtmcat's message, exit non-zero, nothing mounted
e=$("$RTMFS" -o "skeleton=$T/model.cfg:Nope" "$S" "$M" 2>&1)
rc=$?
want="rtmfs: skeleton '$T/model.cfg:Nope': CfgSkeletons has no class 'Nope'"
if [ "$rc" != 0 ] && [ "$e" = "$want" ] && ! mounted "$M"; then
    ok "skeleton=model.cfg:Nope: exit $rc, one line, not mounted"
else
    fail "skeleton=model.cfg:Nope: exit $rc, '$e'"
fi
printf 'class CfgSkeletons { class A { skeletonInherit = "A"; }; };\n' >"$T/loop.cfg"
e=$("$RTMFS" -o "skeleton=$T/loop.cfg" "$S" "$M" 2>&1)
rc=$?
[ "$rc" != 0 ] && [[ $e == "rtmfs: skeleton '$T/loop.cfg': skeletonInherit loop"* ]] && ! mounted "$M" &&
    ok "skeleton=loop.cfg: a skeletonInherit loop fails the start" || fail "loop.cfg: exit $rc, '$e'"

finish modelcfg.sh

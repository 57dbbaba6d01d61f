#!/usr/bin/env bash
# layers.sh - src/ is one folder a layer, and the layers depend one way.
# The table is the Makefile's (make layers: each folder and the layers it
# may use).  Checks, from the built objects' symbols (nm):
#  - no source file lies directly in src/, and every folder of sources is
#    a layer of the table;
#  - every object is compiled with the include paths of its layer's table
#    line and no other (make -n), so the compiler refuses an upward #include;
#  - no object takes a symbol from a folder its layer may not use;
#  - no cycle between folders (tsort), and at most one between files (the
#    strongly connected components of the files' symbol graph), each named;
#  - no function is defined twice among the objects and archives linked
#    into one program (rtmfs, rtmcat, rtmgen: their link lines, make -n),
#    so that no program's link order picks one copy of two (as a stub of
#    the index for rtmcat once did); rtmfs-fbx too.
# Each checker is run on a made-up case first, which it must reject.
NAME=layers
# shellcheck source=tests/lib/check.sh
. "$(dirname "$0")/../lib/check.sh"
MAKE=${MAKE:-make}
T=$(mktemp -d /tmp/rtmfs-layers.XXXXXX)
trap 'rm -rf "$T"' EXIT
FILE_CYCLES_MAX=1

# symbols OBJ...: "OBJ D SYM" for what OBJ defines, "OBJ U SYM" for what it
# takes, OBJ as FOLDER/NAME.
symbols() {
    local o
    for o in "$@"; do
        nm "$o" | awk -v obj="$(basename "$(dirname "$o")")/$(basename "$o" .o)" '
            NF == 3 && $2 ~ /^[TDBRCVW]$/ { print obj, "D", $3 }
            NF == 2 && $1 == "U"          { print obj, "U", $2 }'
    done
}

# judge TABLE SYMBOLS: prints "bad: ..." for each symbol taken from a folder
# not allowed, "edge: A B" for each folder edge, "file: A B" for each file
# edge (to the definer the layer may use, its own folder first).
judge() {
    awk '
        FNR == NR { d = $1; sub(/:$/, "", d); layer[d] = 1
                    for (i = 2; i <= NF; i++) may[d, $i] = 1; next }
        $2 == "D" { defs[$3] = defs[$3] " " $1; next }
        { taken[++n] = $1 " " $3 }
        END {
            for (k = 1; k <= n; k++) {
                split(taken[k], t, " "); obj = t[1]; sym = t[2]
                if (!(sym in defs)) continue                # libc, libfuse, ...
                split(obj, p, "/"); from = p[1]
                m = split(defs[sym], ds, " "); pick = ""; own = 0
                for (i = 1; i <= m; i++) {
                    split(ds[i], q, "/")
                    if (ds[i] == obj) { own = 1; break }
                    if (q[1] == from && pick == "") pick = ds[i]
                }
                if (own) continue
                for (i = 1; i <= m && pick == ""; i++) {
                    split(ds[i], q, "/"); if ((from, q[1]) in may) pick = ds[i]
                }
                if (pick == "") { pick = ds[1]; print "bad: " obj " takes " sym " from " pick }
                split(pick, q, "/")
                if (q[1] != from) print "edge: " from " " q[1]
                print "file: " obj " " pick
            }
        }' "$1" "$2" | sort -u
}

# file_cycles EDGES: one line a strongly connected component of more than
# one file (Tarjan), its files sorted.
file_cycles() {
    awk '$1 == "file:" { adj[$2] = adj[$2] " " $3; node[$2]; node[$3] }
        function visit(v,    i, n, w, ws, comp) {
            index_[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
            n = split(adj[v], ws, " ")
            for (i = 1; i <= n; i++) {
                w = ws[i]
                if (!(w in index_)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
                else if (on[w] && index_[w] < low[v]) low[v] = index_[w]
            }
            if (low[v] == index_[v]) {
                comp = ""; size = 0
                do { w = stack[sp--]; on[w] = 0; comp = comp " " w; size++ } while (w != v)
                if (size > 1) print comp
            }
        }
        END { for (v in node) if (!(v in index_)) visit(v) }' "$1" |
        while read -r line; do printf '%s\n' "$line" | tr ' ' '\n' | sort | tr '\n' ' '; echo; done
}

# link_inputs PROG: the objects and archives $BUILD/PROG is linked from,
# read from its link line (make -n).
link_inputs() {
    $MAKE -n -B --no-print-directory BUILD="$BUILD" "$BUILD/$1" 2>/dev/null |
        grep -- "-o $BUILD/$1 " | tail -1 | tr ' ' '\n' | grep -E '\.(o|a)$'
}

# twice FILE...: "FUNCTION: DEFINER DEFINER..." for each global function
# (nm's T) that more than one object, or archive member, of FILEs defines.
twice() {
    nm -A --defined-only "$@" 2>/dev/null | awk '
        $2 == "T" { sub(/:[0-9a-f]+$/, "", $1); n[$3]++; by[$3] = by[$3] " " $1 }
        END { for (f in n) if (n[f] > 1) print f ":" by[f] }' | sort
}

# --- the checkers on made-up cases -----------------------------------------
# Two definitions of f, one in an object and one in an archive's member
# (as rtmcat_noindex.o and index.o in librtmtree.a once were): f, not g.
printf 'int f(void);\nint f(void) { return 1; }\n' > "$T/a.c"
printf 'int f(void), g(void);\nint f(void) { return 2; }\nint g(void) { return 3; }\n' > "$T/b.c"
if ${CC:-cc} -c -o "$T/a.o" "$T/a.c" && ${CC:-cc} -c -o "$T/b.o" "$T/b.c" &&
   ar rcs "$T/b.a" "$T/b.o" && [ "$(twice "$T/a.o" "$T/b.a" | cut -d: -f1)" = f ]; then
    ok "the duplicate checker finds a function an object and an archive both define (made-up case)"
else
    fail "the duplicate checker on a made-up case: $(twice "$T/a.o" "$T/b.a" | tr '\n' ';')"
fi

printf '%s\n' "low:" "high: low" > "$T/table"
printf '%s\n' "low/a D f" "low/a U g" "high/b D g" "high/b U f" "high/c D h" "high/c U g" \
    "high/b U h" > "$T/syms"
judge "$T/table" "$T/syms" > "$T/judged"
if grep -qx 'bad: low/a takes g from high/b' "$T/judged" &&
   [ "$(grep -c '^bad: ' "$T/judged")" = 1 ] &&
   [ "$(file_cycles "$T/judged")" = "high/b high/c low/a " ] &&
   ! awk '$1 == "edge:" { print $2, $3 }' "$T/judged" | tsort >/dev/null 2>&1; then
    ok "the layer checker rejects a symbol taken upward, a folder cycle and a file cycle (made-up graph)"
else
    fail "the layer checker on a made-up graph: $(tr '\n' ';' < "$T/judged")"
fi

# --- the tree ---------------------------------------------------------------
$MAKE -s --no-print-directory layers > "$T/table" || { fail "make layers"; finish build/layers; }
top=$(find src -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) | tr '\n' ' ')
[ -z "$top" ] && ok "no source file directly in src/" || fail "source files directly in src/: $top"
stray=""
for d in $(find src -name '*.c' -printf '%h\n' | sort -u); do
    grep -q "^$(basename "$d"):" "$T/table" || stray="$stray $d"
done
[ -z "$stray" ] && ok "every folder of sources in src/ is a layer of make layers ($(wc -l < "$T/table") layers)" \
    || fail "folders of sources that are no layer:$stray"

# Each layer's objects compile with exactly the include paths of its line.
wrong=""
while read -r d below; do
    d=${d%:}
    c=$(find "src/$d" -name '*.c' | sort | head -1)
    o=$BUILD/obj/$d/$(basename "$c" .c).o
    got=$($MAKE -n -B --no-print-directory BUILD="$BUILD" "$o" 2>/dev/null |
          grep -- " -c $c" | grep -o -- '-Isrc/[a-z]*' | sed 's/-Isrc\///' | tr '\n' ' ')
    want=$(for b in $below; do printf '%s ' "$b"; done)
    [ "$got" = "$want" ] || wrong="$wrong $d (-I ${got:-nothing}, want ${want:-nothing})"
done < "$T/table"
[ -z "$wrong" ] && ok "every layer compiles with the include paths of the layers below it alone" \
    || fail "include paths:$wrong"

objs=("$BUILD"/obj/*/*.o)
[ -e "${objs[0]}" ] || { fail "no objects in $BUILD/obj (make all first)"; finish build/layers; }
symbols "${objs[@]}" > "$T/syms"
judge "$T/table" "$T/syms" > "$T/judged"
bad=$(grep -c '^bad: ' "$T/judged")
[ "$bad" = 0 ] && ok "no object takes a symbol from a layer above its own (${#objs[@]} objects)" \
    || { fail "$bad symbols taken from a layer not below:"; grep '^bad: ' "$T/judged" | head -20; }

awk '$1 == "edge:" { print $2, $3 }' "$T/judged" > "$T/folders"
if tsort "$T/folders" > /dev/null 2> "$T/tsort"; then
    ok "no cycle between folders ($(wc -l < "$T/folders") folder edges)"
else
    fail "a cycle between folders: $(tr '\n' ' ' < "$T/tsort")"
fi

# No function defined twice within one program's objects and archives.
for prog in rtmfs rtmcat rtmgen rtmfs-fbx; do
    inputs=$(link_inputs "$prog")
    if [ -z "$inputs" ]; then
        fail "no link line for $BUILD/$prog (make -n)"
        continue
    fi
    # shellcheck disable=SC2086  # one word a file
    twice $inputs > "$T/twice"
    n=$(grep -c . "$T/twice")
    sed 's/^/  defined twice: /' "$T/twice"
    [ "$n" = 0 ] && ok "$prog: no function defined twice among its $(echo $inputs | wc -w) objects and archives" \
        || fail "$prog: $n functions defined twice"
done

file_cycles "$T/judged" > "$T/cycles"
n=$(grep -c . "$T/cycles")
sed 's/^/  file cycle: /' "$T/cycles"
[ "$n" -le "$FILE_CYCLES_MAX" ] && ok "$n cycles between files (at most $FILE_CYCLES_MAX; each says why in its header)" \
    || fail "$n cycles between files, more than $FILE_CYCLES_MAX"
finish build/layers

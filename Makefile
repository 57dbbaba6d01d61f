# rtmfs - read-only FUSE views of Arma RTM animations.
# make            build the programs into build/
# make check      install missing build dependencies, build, run every test
#                 and end with one summary line (SANITIZE=1: ASan + UBSan);
#                 make check-builds: the tests that build the project again
# make bench      benchmarks; make demo: install deps, build, show samples
#
# CFLAGS, CPPFLAGS and LDFLAGS from the command line or the environment add
# to the project's flags: make CFLAGS="-O0 -g" gives an unoptimised build
# that still has everything below that correctness needs.

CC       ?= cc
PKG      ?= pkg-config
PREFIX   ?= /usr/local
DESTDIR  ?=
SANITIZE ?=

BUILD    ?= build$(if $(SANITIZE),-san)

# The project's defaults, which a user's CFLAGS may override (-O0, -g3, ...).
# -O3, not -O2: the sizing of a first mount runs small fixed loops over
# every matrix and number (3x3 products, rows of 12), which only -O3
# unrolls and vectorises; it changes no result (no -ffast-math), and ran
# a first-mount du -s of 1,000 animations on 6 % less CPU.
DEF_CFLAGS := -O3 -g -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# What correctness needs; it comes after the user's flags so that none of
# them removes it.  -ffp-contract=off: BMTR conversion must round exactly as
# written (rtm(5), Rounding), so no fused multiply-add even with -march=native.
NEED_CPPFLAGS := -D_GNU_SOURCE
NEED_CFLAGS   := -std=c11 -ffp-contract=off
DEP_FLAGS     := -MMD -MP
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
ALL_CPPFLAGS = $(NEED_CPPFLAGS) $(CPPFLAGS)
ALL_CFLAGS   = $(DEF_CFLAGS) $(SAN_FLAGS) $(CFLAGS) $(NEED_CFLAGS)
ALL_LDFLAGS  = $(SAN_FLAGS) $(LDFLAGS)

# The format core's libraries: LZO (BMTR's compression), jansson (glTF's JSON).
CORE_CFLAGS   := $(shell $(PKG) --cflags lzo2 jansson 2>/dev/null)
LZO_LIBS      := $(shell $(PKG) --libs lzo2 2>/dev/null || echo -llzo2)
JANSSON_LIBS  := $(shell $(PKG) --libs jansson 2>/dev/null || echo -ljansson)
CMOCKA_CFLAGS := $(shell $(PKG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell $(PKG) --libs cmocka 2>/dev/null || echo -lcmocka)
FUSE_CFLAGS   := $(shell $(PKG) --cflags fuse3 2>/dev/null)
FUSE_LIBS     := $(shell $(PKG) --libs fuse3 2>/dev/null || echo -lfuse3)
SQLITE_CFLAGS := $(shell $(PKG) --cflags sqlite3 2>/dev/null)
SQLITE_LIBS   := $(shell $(PKG) --libs sqlite3 2>/dev/null || echo -lsqlite3)
ASSIMP_LIBS   := $(shell $(PKG) --libs assimp 2>/dev/null || echo -lassimp)

# src/ holds one folder a layer.  A layer sees only the headers of the
# layers below it (BELOW_layer, its own folder aside), so the compiler keeps
# the layering; tests/build/layers.sh checks the objects' symbols against
# the same table (make layers prints it).
BELOW_base    :=
BELOW_rtm     := base
BELOW_pbo     := base
BELOW_config  := base
BELOW_game    := base rtm pbo config
BELOW_views   := base rtm pbo
BELOW_writers := base rtm pbo config game
BELOW_cache   := base rtm pbo config game views
BELOW_loader  := $(BELOW_cache) cache
BELOW_tree    := $(BELOW_loader) loader
BELOW_index   := base
BELOW_fuse    := $(BELOW_tree) tree index
BELOW_rtmcat  := $(BELOW_tree) tree
BELOW_rtmgen  := base rtm pbo config game writers
# rtmfs-fbx, the FBX converter rtmfs runs as a process of its own
# (src/loader/convert_proc.h): base and libassimp alone.
BELOW_fbx     := base
# The format core: RTM animations, PBO archives, configs (config/: their
# syntax; game/: what the game makes of them, states and skeletons) and
# the views rendered from them; no FUSE, no global state (librtmcore.a).
CORE_DIRS := base rtm pbo config game views
# The fixture writers (librtmwrite.a): samples, archives, rapified configs.
WRIT_DIRS := writers
# The mount without FUSE (librtmtree.a): the cache (an LRU), the loader
# (reading SOURCE, and what to recall from and remember in a store) and
# the tree (what the mount shows); threads, no libfuse, no SQLite.
TREE_DIRS := cache loader tree
# The persistent index in SQLite (librtmindex.a), a store (store.h) that
# only rtmfs makes: only rtmfs, the tests, tsan and fuzz_tree link SQLite.
INDEX_DIRS := index
LAYER_DIRS := $(CORE_DIRS) $(WRIT_DIRS) $(TREE_DIRS) $(INDEX_DIRS) fuse rtmcat rtmgen fbx
# Tests, fuzz targets and benchmarks see every layer.
ALL_INC  := $(LAYER_DIRS:%=-Isrc/%)
layer_inc = $(addprefix -Isrc/,$(BELOW_$(firstword $(subst /, ,$(1)))))
srcs_in   = $(sort $(foreach d,$(1),$(wildcard src/$(d)/*.c)))
objs_of   = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(1))
CORE_SRC := $(call srcs_in,$(CORE_DIRS))
WRIT_SRC := $(call srcs_in,$(WRIT_DIRS))
TREE_SRC := $(call srcs_in,$(TREE_DIRS))
INDEX_SRC := $(call srcs_in,$(INDEX_DIRS))
CORE_OBJ := $(call objs_of,$(CORE_SRC))
WRIT_OBJ := $(call objs_of,$(WRIT_SRC))
FS_OBJ   := $(call objs_of,$(TREE_SRC))
INDEX_OBJ := $(call objs_of,$(INDEX_SRC))
LIBCORE  := $(BUILD)/librtmcore.a
LIBWRIT  := $(BUILD)/librtmwrite.a
LIBTREE  := $(BUILD)/librtmtree.a
LIBINDEX := $(BUILD)/librtmindex.a
LIBS     := $(LZO_LIBS) $(JANSSON_LIBS) -lm

PROGS    := $(BUILD)/rtmcat $(BUILD)/rtmgen $(BUILD)/rtmfs $(BUILD)/rtmfs-fbx
# make check builds on every core unless -j was given
NPROC    := $(shell nproc 2>/dev/null || echo 1)
# tests/unit/LAYER/test_*.c: one cmocka program a file, by layer.
UNIT_DIRS := $(sort $(dir $(wildcard tests/unit/*/test_*.c)))
UNIT     := $(notdir $(basename $(wildcard tests/unit/*/test_*.c)))
UNIT_BIN := $(UNIT:%=$(BUILD)/tests/%)

.PHONY: all tests check check-builds bench demo fuzz fuzz-long tsan stress stress-long valgrind install install-magic uninstall deb \
	clean deps layers view-hashes ofp2-table pow10-table corpus-mix float-exhaustive
all: $(PROGS)
# the unit tests, and the mount tests' own programs (tests/lib/walk_check.c; fuzz_seeds for tests/mount/tricks.sh;
# tests/lib/faultfs.c for tests/mount/faults.sh)
tests: $(UNIT_BIN) $(BUILD)/tests/walk_check $(BUILD)/tests/fuzz_seeds $(BUILD)/tests/faultfs

# Objects: one rule; the FUSE front end alone sees libfuse's headers.
$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(call layer_inc,$*) $(CORE_CFLAGS) $(XCFLAGS) $(ALL_CFLAGS) $(DEP_FLAGS) -c $< -o $@
$(BUILD)/obj/fuse/%.o: XCFLAGS = $(FUSE_CFLAGS)
$(BUILD)/obj/index/%.o: XCFLAGS = $(SQLITE_CFLAGS)

$(BUILD)/tests:
	mkdir -p $@

# One line a layer: the folder, then the layers it may use.
layers:
	@$(foreach d,$(LAYER_DIRS),echo "$(d): $(BELOW_$(d))";)

$(LIBCORE): $(CORE_OBJ)
	rm -f $@ && ar rcs $@ $^
$(LIBWRIT): $(WRIT_OBJ)
	rm -f $@ && ar rcs $@ $^
$(LIBTREE): $(FS_OBJ)
	rm -f $@ && ar rcs $@ $^
$(LIBINDEX): $(INDEX_OBJ)
	rm -f $@ && ar rcs $@ $^

# rtmcat is run once a file, so its start-up counts.  It gives the
# loader and the tree no store (store.h), so nothing of it calls the index
# and SQLite is not linked; and it is a static PIE (glibc, LZO and libm inside), which leaves
# the dynamic linker nothing to load or relocate: 0.3 ms a run less.  Not
# under SANITIZE: the sanitizers' runtimes need a dynamic program, as
# valgrind's memcheck does to watch the heap, so make valgrind runs
# rtmcat-memcheck, the same objects linked dynamically.
RTMCAT_OBJ := $(patsubst %,$(BUILD)/obj/rtmcat/rtmcat%.o,_args _estimate _config _check _usage _states \
                _missing _gamepath _plain _text _extract) $(BUILD)/obj/rtmcat/rtmcat.o
$(BUILD)/rtmcat: $(RTMCAT_OBJ) $(LIBTREE) $(LIBCORE)
	$(CC) $(ALL_LDFLAGS) $(if $(SANITIZE),,-static-pie) -o $@ $^ $(LIBS) -lpthread
$(BUILD)/rtmcat-memcheck: $(RTMCAT_OBJ) $(LIBTREE) $(LIBCORE)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS) -lpthread
$(BUILD)/rtmgen: $(call objs_of,$(call srcs_in,rtmgen)) $(LIBWRIT) $(LIBCORE)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/rtmfs: $(call objs_of,$(call srcs_in,fuse)) $(LIBINDEX) $(LIBTREE) $(LIBCORE)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(FUSE_LIBS) $(SQLITE_LIBS) $(LIBS) -lpthread
# rtmfs-fbx: FBX in, GLB out, through libassimp; the one program that links
# it.  Its modules but main (FBX_OBJ) need no assimp function, so the unit
# tests of tests/unit/fbx link them without it.
FBX_OBJ := $(call objs_of,$(filter-out src/fbx/rtmfs_fbx.c,$(call srcs_in,fbx)))
$(BUILD)/rtmfs-fbx: $(BUILD)/obj/fbx/rtmfs_fbx.o $(FBX_OBJ) $(LIBCORE)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ASSIMP_LIBS) $(LIBS)
$(foreach t,$(notdir $(basename $(wildcard tests/unit/fbx/test_*.c))),$(eval $(BUILD)/tests/$(t): $(FBX_OBJ)))

# The helpers the unit tests share, declared in tests/unit/*.h and defined
# in tests/unit/lib/*.c, compiled once into librtmtest.a (cmocka's asserts
# inside: a program that links it links cmocka).  alloc_fail.c is not in
# it: its __wrap_ functions call __real_ ones that only -Wl,--wrap defines,
# so test_alloc_fail alone links its object.
TLIB_SRC := $(filter-out tests/unit/lib/alloc_fail.c,$(sort $(wildcard tests/unit/lib/*.c)))
LIBTEST  := $(BUILD)/librtmtest.a
TEST_OBJ_CC = $(CC) $(ALL_CPPFLAGS) $(ALL_INC) -Itests/unit $(CORE_CFLAGS) $(CMOCKA_CFLAGS) \
	$(ALL_CFLAGS) $(DEP_FLAGS) -c $< -o $@
$(BUILD)/testobj/%.o: tests/%.c
	@mkdir -p $(@D)
	$(TEST_OBJ_CC)
$(LIBTEST): $(TLIB_SRC:tests/%.c=$(BUILD)/testobj/%.o)
	rm -f $@ && ar rcs $@ $^

# Test programs: tests/unit (cmocka), tests/fuzz (the seed writers),
# tests/bench (the core benchmark) and tests/lib (the mount tests' walker),
# each one file linked with the libraries (and the objects a program's own
# rule adds as prerequisites: $(filter %.o,$^)).
TEST_CC = $(CC) $(ALL_CPPFLAGS) $(ALL_INC) -Itests/unit $(CORE_CFLAGS) $(CMOCKA_CFLAGS) $(ALL_CFLAGS) \
	$(DEP_FLAGS) -o $@ $< $(filter %.o,$^) $(LIBTEST) $(LIBINDEX) $(LIBTREE) $(LIBWRIT) $(LIBCORE) $(ALL_LDFLAGS) \
	$(CMOCKA_LIBS) $(SQLITE_LIBS) $(LIBS) -lpthread
TEST_DEPS = $(LIBTEST) $(LIBINDEX) $(LIBTREE) $(LIBWRIT) $(LIBCORE) | $(BUILD)/tests
define unit_rule
$$(BUILD)/tests/%: $(1)%.c $$(TEST_DEPS)
	$$(TEST_CC)
endef
$(foreach d,$(UNIT_DIRS),$(eval $(call unit_rule,$(d))))
# test_alloc_fail fails the Nth allocation of rtmfs's own code: each libc
# function that allocates which the archives call is wrapped
# (tests/unit/alloc_fail.h, defined in tests/unit/lib/alloc_fail.c, linked
# here only); --wrap leaves the shared libraries' calls alone.
ALLOC_WRAP := malloc calloc realloc free strdup strndup asprintf realpath open_memstream \
              opendir fdopendir fopen
$(BUILD)/tests/test_alloc_fail: private ALL_LDFLAGS += $(ALLOC_WRAP:%=-Wl,--wrap=%)
$(BUILD)/tests/test_alloc_fail: $(BUILD)/testobj/unit/lib/alloc_fail.o
# fuzz_tree_seeds writes fuzz_tree's inputs with fuzz_tree's own sample
# choice (fz_sample_opts, tests/fuzz/fuzz_tree_source.c).
$(BUILD)/tests/fuzz_tree_seeds: $(BUILD)/testobj/fuzz/fuzz_tree_source.o
$(BUILD)/tests/%: tests/fuzz/%.c $(TEST_DEPS)
	$(TEST_CC)
$(BUILD)/tests/%: tests/bench/%.c $(TEST_DEPS)
	$(TEST_CC)
$(BUILD)/tests/%: tests/lib/%.c $(TEST_DEPS)
	$(TEST_CC)
# faultfs, a FUSE file system of its own, links libfuse alone; never
# sanitized: it is the faulty source under a sanitized rtmfs, not under test
$(BUILD)/tests/faultfs: tests/lib/faultfs.c | $(BUILD)/tests
	$(CC) $(ALL_CPPFLAGS) $(FUSE_CFLAGS) $(DEF_CFLAGS) $(CFLAGS) $(NEED_CFLAGS) $(DEP_FLAGS) -o $@ $< \
		$(LDFLAGS) $(FUSE_LIBS)

-include $(wildcard $(BUILD)/obj/*/*.d $(BUILD)/tests/*.d $(BUILD)/testobj/*/*.d $(BUILD)/testobj/*/*/*.d)

# The build dependencies first (a fresh machine has none), then the build in
# a make of its own (which reads pkg-config's answers anew), then the tests.
# make check TEST=NAME runs one unit test (TEST=test_tree) or one shell
# suite (TEST=tests/mount/pbo.sh) alone, without installing anything.
# TEST_CASE=PATTERN, with TEST=test_NAME, runs only the cmocka cases of that
# program whose names PATTERN matches ('*' and '?' as in a shell:
# TEST=test_tree TEST_CASE=cut_archives, or TEST_CASE='views_*'); a PATTERN
# that matches none of them fails, naming the cases there are.
TEST ?=
check:
	@$(if $(TEST_CASE),$(if $(filter test_%,$(TEST)),,echo "make check: TEST_CASE=$(TEST_CASE) needs TEST=test_NAME" >&2; exit 2))
	@$(if $(TEST),,bash src/scripts/deps.sh)
	@$(MAKE) --no-print-directory $(if $(findstring j,$(MAKEFLAGS)),,-j$(NPROC)) all tests
	@BUILD=$(BUILD) MAKE="$(MAKE)" TEST_CASE='$(TEST_CASE)' bash tests/run.sh $(if $(TEST),--only $(TEST),$(UNIT_BIN))

deps:
	@bash src/scripts/deps.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@bash src/scripts/demo.sh $(BUILD)

bench: all $(BUILD)/tests/bench_core $(BUILD)/tests/bench_config $(BUILD)/tests/test_binarise \
       $(BUILD)/tests/test_mocap_goals
	@$(BUILD)/tests/bench_core
	@$(BUILD)/tests/bench_config
	@BUILD=$(BUILD) bash tests/bench/bench_config_install.sh
	@BUILD=$(BUILD) bash tests/bench/bench_states.sh
	@BUILD=$(BUILD) bash tests/bench/bench_mount.sh
	@BUILD=$(BUILD) bash tests/bench/bench_pbo.sh
	@BUILD=$(BUILD) bash tests/bench/bench_install.sh
	@BUILD=$(BUILD) bash tests/bench/bench_gamepaths.sh
	@BUILD=$(BUILD) bash tests/bench/bench_rtmcat.sh
	@BUILD=$(BUILD) bash tests/bench/bench_goals.sh
	@BUILD=$(BUILD) bash tests/bench/bench_walks.sh
	@BUILD=$(BUILD) bash tests/bench/bench_skeleton.sh
	@BUILD=$(BUILD) bash tests/bench/bench_first_view.sh
	@BUILD=$(BUILD) bash tests/bench/bench_damaged.sh
	@BUILD=$(BUILD) bash tests/bench/bench_binarise.sh
	@BUILD=$(BUILD) bash tests/bench/bench_bvh.sh

# Every file the mount shows over ../shared, with its size and SHA-256
# (tests/bench/view_hashes.sh): a change that must not change behaviour
# leaves build/view-hashes.txt as it was (cmp before and after).
view-hashes: all
	@BUILD=$(BUILD) bash tests/bench/view_hashes.sh $(BUILD)/view-hashes.txt

# Fuzzing (clang's libFuzzer): make fuzz FUZZ_SECONDS=N runs each target for
# N seconds, seeded with generated files and ../shared/corpus when present,
# and prints each one's rate (inputs a second: 800 to 40,000 here, and
# 200 at least for fuzz_tree, which makes a SOURCE and mounts it an
# input); make fuzz-long runs each for ten minutes.
# Crashes land in build-fuzz/crash-*; keep each as a regression test.
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build-fuzz
FUZZ_CC      ?= clang
FUZZ_COMPILE := -g -O1 $(NEED_CPPFLAGS) $(ALL_INC) $(NEED_CFLAGS) -fno-sanitize-recover=all
FUZZ_FLAGS   := $(FUZZ_COMPILE) -fsanitize=fuzzer,address,undefined
FUZZ_SRC     := $(CORE_SRC)
FUZZERS      := fuzz_rtm fuzz_rtm_head fuzz_skeleton fuzz_pbo fuzz_config fuzz_gamepath fuzz_tree \
                fuzz_mocap fuzz_gltf
# fuzz_tree drives the tree with its workers: the writers make its SOURCE,
# and the cache, the loader and the index (SQLite) are under test too.
FUZZ_TREE_SRC := $(FUZZ_SRC) $(WRIT_SRC) $(TREE_SRC) $(INDEX_SRC)

# The code targets share, in tests/fuzz/*.c beside them, compiled with each
# target that uses it (FUZZ_OWN_target).
FUZZ_OWN_fuzz_rtm      := tests/fuzz/fuzz_head.c
FUZZ_OWN_fuzz_rtm_head := tests/fuzz/fuzz_head.c
FUZZ_OWN_fuzz_tree     := tests/fuzz/fuzz_tree_source.c tests/fuzz/fuzz_tree_kernel.c
$(foreach f,$(FUZZERS),$(eval $(FUZZ_DIR)/$(f): $(FUZZ_OWN_$(f))))

# The sources are compiled once for every target (instrumented for the
# fuzzer, not linked with its main), each target then linked from them.
fuzz_objs = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))
$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_COMPILE) -fsanitize=fuzzer-no-link,address,undefined $(CORE_CFLAGS) \
		$(SQLITE_CFLAGS) $(DEP_FLAGS) -c $< -o $@
-include $(patsubst %.o,%.d,$(call fuzz_objs,$(FUZZ_TREE_SRC)))
$(FUZZ_DIR)/%: tests/fuzz/%.c $(call fuzz_objs,$(FUZZ_SRC)) $(wildcard src/*/*.h tests/fuzz/*.h) | $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CORE_CFLAGS) -o $@ $< $(FUZZ_OWN_$(@F)) $(call fuzz_objs,$(FUZZ_SRC)) $(LIBS)
$(FUZZ_DIR)/fuzz_tree: tests/fuzz/fuzz_tree.c $(call fuzz_objs,$(FUZZ_TREE_SRC)) \
		$(wildcard src/*/*.h tests/fuzz/*.h) | $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(CORE_CFLAGS) $(SQLITE_CFLAGS) -o $@ $< $(FUZZ_OWN_fuzz_tree) \
		$(call fuzz_objs,$(FUZZ_TREE_SRC)) $(SQLITE_LIBS) $(LIBS) -lpthread
$(FUZZ_DIR):
	mkdir -p $@

fuzz:
	@$(MAKE) --no-print-directory $(if $(findstring j,$(MAKEFLAGS)),,-j$(NPROC)) \
		$(FUZZERS:%=$(FUZZ_DIR)/%) $(BUILD)/tests/fuzz_seeds $(BUILD)/tests/fuzz_tree_seeds
	@bash tests/fuzz/fuzz.sh $(FUZZ_DIR) $(BUILD) $(FUZZ_SECONDS)
# Ten minutes each target.
fuzz-long:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=600

# ThreadSanitizer over everything rtmfs runs on several threads: the cache,
# the loader, the inode table and the tree (their unit tests).
TSAN_DIR   := build-tsan
TSAN_SRC   := $(CORE_SRC) $(WRIT_SRC) $(TREE_SRC) $(INDEX_SRC)
# The tests run: those of the threaded layers' code, the cache layer's
# (the cache, the loader, the index: test_cache, test_cache_budget,
# test_loader, test_index, test_remember) and the tree layer's (the inode table and the tree with
# its sizing-ahead workers: test_inodes, test_tree, test_tree_ahead,
# test_tree_changes; the walk for the states table, which reads archives
# on a few threads: test_states_each, test_states_remember).  The others
# test single-threaded code, which ThreadSanitizer has nothing to say
# about; a new test of a threaded layer's code joins this list.
TSAN_TESTS := test_cache test_cache_budget test_index test_loader test_remember \
              test_inodes test_tree test_tree_ahead test_tree_changes test_skelreg \
              test_states_each test_states_remember
# The unit tests' helpers (tests/unit/lib, as librtmtest.a above), built
# once with ThreadSanitizer.
TSAN_CC  = $(FUZZ_CC) -g -O1 $(NEED_CPPFLAGS) $(ALL_INC) $(NEED_CFLAGS) -Itests/unit -fsanitize=thread \
	$(CORE_CFLAGS) $(SQLITE_CFLAGS) $(CMOCKA_CFLAGS)
TSAN_LIB := $(TSAN_DIR)/librtmtest.a
$(TSAN_DIR)/testobj/%.o: tests/unit/lib/%.c $(wildcard src/*/*.h tests/unit/*.h)
	@mkdir -p $(@D)
	$(TSAN_CC) -c $< -o $@
$(TSAN_LIB): $(TLIB_SRC:tests/unit/lib/%.c=$(TSAN_DIR)/testobj/%.o)
	rm -f $@ && ar rcs $@ $^
# The sources compiled once with ThreadSanitizer, for every test to link.
TSAN_ALL := $(TSAN_DIR)/librtmall.a
$(TSAN_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(TSAN_CC) $(DEP_FLAGS) -c $< -o $@
-include $(patsubst %.c,$(TSAN_DIR)/obj/%.d,$(TSAN_SRC))
$(TSAN_ALL): $(patsubst %.c,$(TSAN_DIR)/obj/%.o,$(TSAN_SRC))
	rm -f $@ && ar rcs $@ $^
define tsan_rule
$$(TSAN_DIR)/%: $(1)%.c $$(TSAN_ALL) $$(TSAN_LIB) $$(wildcard src/*/*.h tests/unit/*.h)
	mkdir -p $$(TSAN_DIR)
	$$(TSAN_CC) -o $$@ $$< $$(TSAN_LIB) $$(TSAN_ALL) $$(CMOCKA_LIBS) $$(SQLITE_LIBS) $$(LIBS) -lpthread
endef
$(foreach d,$(UNIT_DIRS),$(eval $(call tsan_rule,$(d))))
# And rtmfs itself built with ThreadSanitizer from the same sources as
# $(BUILD)/rtmfs, run by a bounded stress over a damaged tree
# (tests/mount/stress.sh damaged; it fails on any report in rtmfs's stderr).
TSAN_STRESS_SECONDS ?= 60
$(TSAN_DIR)/rtmfs: $(call srcs_in,fuse) $(CORE_SRC) $(TREE_SRC) $(INDEX_SRC) $(wildcard src/*/*.h)
	mkdir -p $(TSAN_DIR)
	$(FUZZ_CC) -g -O1 $(NEED_CPPFLAGS) $(ALL_INC) $(NEED_CFLAGS) -fsanitize=thread $(CORE_CFLAGS) \
		$(SQLITE_CFLAGS) $(FUSE_CFLAGS) -o $@ $(call srcs_in,fuse) $(CORE_SRC) $(TREE_SRC) $(INDEX_SRC) \
		$(FUSE_LIBS) $(SQLITE_LIBS) $(LIBS) -lpthread
tsan:
	@$(MAKE) --no-print-directory $(if $(findstring j,$(MAKEFLAGS)),,-j$(NPROC)) \
		$(TSAN_TESTS:%=$(TSAN_DIR)/%) $(TSAN_DIR)/rtmfs all
	@set -e; for t in $(TSAN_TESTS:%=$(TSAN_DIR)/%); do echo "== $$t"; TSAN_OPTIONS=halt_on_error=1 $$t; done
	@echo "== $(TSAN_DIR)/rtmfs: stress over a damaged tree, $(TSAN_STRESS_SECONDS) s"
	@BUILD=$(BUILD) RTMFS_BIN=$(TSAN_DIR)/rtmfs TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1" \
		bash tests/mount/stress.sh $(TSAN_STRESS_SECONDS) damaged

# Eight parallel readers against a mount whose source keeps changing, then
# as long over a damaged tree (tests/mount/stress.sh); make stress-long:
# 15 minutes each, 30 in all.
STRESS_SECONDS ?= 60
stress: all
	@BUILD=$(BUILD) bash tests/mount/damaged.sh
	@BUILD=$(BUILD) bash tests/mount/stress.sh $(STRESS_SECONDS)
stress-long:
	@$(MAKE) --no-print-directory stress STRESS_SECONDS=900

# The tests that build the project again (a "# make check: builds" line:
# a user's CFLAGS, the Debian package), kept out of make check's minutes.
check-builds: all
	@for t in $$(grep -lx '# make check: builds' tests/*/*.sh); do \
	    CHECK_LOG=$(BUILD)/check-builds-$$(basename $$t .sh).log \
	    BUILD=$(BUILD) bash tests/run.sh --only $$t || exit 1; done

# valgrind memcheck over rtmcat for every file of the corpus.
valgrind: all $(BUILD)/rtmcat-memcheck
	@bash tests/cli/valgrind.sh $(BUILD)

# make install-magic appends src/packaging/rtmfs.magic to file(1)'s local magic $(MAGIC)
# as a marked block (once; a changed block is replaced); make uninstall takes
# exactly that block out again, with the installed files.
MAGIC ?= /etc/magic

# The built-in skeleton's rest pose, estimated from ../shared/corpus.
ofp2-table: all
	bash src/scripts/ofp2_table.sh $(BUILD) ../shared
	$(MAKE) all

# The real files' mix of formats, frames and bones that rtmgen -I draws from.
corpus-mix:
	bash src/scripts/corpus_mix.sh ../shared

# The table of the float formatter (numfmt.c), written by Python.
pow10-table:
	python3 src/scripts/pow10_table.py > src/base/pow10_table.h

# The float formatter on all 2^32 float32 values, one thread a core
# (RTMFS_FLOAT_STRIDE=N: every N-th).
float-exhaustive: $(BUILD)/tests/float_all
	@$(BUILD)/tests/float_all

MAN := man/rtmcat.1 man/rtmfs.1 man/rtmgen.1 man/rtm.5 man/rtmfs-views.7
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man

# The desktop's files (src/packaging/): the MIME types, the thumbnailer (a
# script in libexec/rtmfs, named in the .thumbnailer file) and the bash
# completions; without DESTDIR the MIME database is updated too.
SHARE     = $(DESTDIR)$(PREFIX)/share
LIBEXEC   = $(PREFIX)/libexec/rtmfs
# rtmfs-fbx: where rtmfs and rtmcat look for it, ../lib/rtmfs from their own
# folder (src/loader/convert_proc.h)
CONVDIR   = $(DESTDIR)$(PREFIX)/lib/rtmfs
COMPL_DIR = $(SHARE)/bash-completion/completions

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(MAN_DIR)/man1 $(MAN_DIR)/man5 $(MAN_DIR)/man7 \
		$(SHARE)/rtmfs $(DESTDIR)$(LIBEXEC) $(SHARE)/mime/packages $(SHARE)/thumbnailers $(COMPL_DIR) \
		$(CONVDIR)
	install -m 755 $(BUILD)/rtmcat $(BUILD)/rtmfs $(BUILD)/rtmgen $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(BUILD)/rtmfs-fbx $(CONVDIR)/
	for m in $(MAN); do install -m 644 $$m $(MAN_DIR)/man$${m##*.}/ || exit 1; done
	install -m 644 src/packaging/rtmfs.magic $(SHARE)/rtmfs/
	install -m 755 src/packaging/rtmfs-thumbnailer $(DESTDIR)$(LIBEXEC)/
	sed 's|@LIBEXECDIR@|$(LIBEXEC)|' src/packaging/rtmfs.thumbnailer.in >$(SHARE)/thumbnailers/rtmfs.thumbnailer
	chmod 644 $(SHARE)/thumbnailers/rtmfs.thumbnailer
	install -m 644 src/packaging/rtmfs-mime.xml $(SHARE)/mime/packages/rtmfs.xml
	install -m 644 src/packaging/rtmfs.bash-completion $(COMPL_DIR)/rtmcat
	ln -sf rtmcat $(COMPL_DIR)/rtmfs && ln -sf rtmcat $(COMPL_DIR)/rtmgen
	$(if $(DESTDIR),,-command -v update-mime-database >/dev/null && update-mime-database $(SHARE)/mime)

install-magic:
	@sh src/scripts/magic.sh add "$(MAGIC)" src/packaging/rtmfs.magic

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/rtmcat $(DESTDIR)$(PREFIX)/bin/rtmfs \
		$(DESTDIR)$(PREFIX)/bin/rtmgen $(SHARE)/rtmfs/rtmfs.magic $(CONVDIR)/rtmfs-fbx \
		$(DESTDIR)$(LIBEXEC)/rtmfs-thumbnailer $(SHARE)/thumbnailers/rtmfs.thumbnailer \
		$(SHARE)/mime/packages/rtmfs.xml $(COMPL_DIR)/rtmcat $(COMPL_DIR)/rtmfs $(COMPL_DIR)/rtmgen
	for m in $(MAN); do rm -f $(MAN_DIR)/man$${m##*.}/$${m#man/}; done
	rmdir $(SHARE)/rtmfs $(DESTDIR)$(LIBEXEC) $(CONVDIR) 2>/dev/null || true
	$(if $(DESTDIR),,-command -v update-mime-database >/dev/null && update-mime-database $(SHARE)/mime)
	@sh src/scripts/magic.sh remove "$(MAGIC)"

# make deb: the Debian package $(BUILD)/rtmfs_VERSION-1_ARCH.deb, its programs
# built apart in $(BUILD)/deb/ with Debian's flags (src/packaging/deb.sh).
deb:
	@MAKE="$(MAKE)" bash src/packaging/deb.sh $(BUILD)

clean:
	rm -rf build build-*

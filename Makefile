# rtmfs - read-only FUSE views of Arma RTM animations.
# make            build the programs into build/
# make check      unit tests, real-file tests, bad-input tests (SANITIZE=1 for ASan+UBSan)
# make bench      benchmarks; make demo: install deps, build, show samples

CC       ?= cc
PKG      ?= pkg-config
PREFIX   ?= /usr/local
DESTDIR  ?=
SANITIZE ?=

BUILD    ?= build$(if $(SANITIZE),-san)
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# -ffp-contract=off: BMTR conversion must round exactly as written (FORMAT.md 6.2)
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE $(WARN) -ffp-contract=off -Isrc
ifneq ($(SANITIZE),)
CFLAGS   += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=address,undefined
endif

LZO_CFLAGS    := $(shell $(PKG) --cflags lzo2 2>/dev/null)
LZO_LIBS      := $(shell $(PKG) --libs lzo2 2>/dev/null || echo -llzo2)
CMOCKA_CFLAGS := $(shell $(PKG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell $(PKG) --libs cmocka 2>/dev/null || echo -lcmocka)

# The format core (RTM formats, views, PBO archives): no FUSE, no global state.
CORE     := util anim plain bmtr lzo skeleton convert numfmt views pbo pbo_file
# The writers: fixtures, samples, fuzz seeds.
WRITERS  := bmtr_write samples pbo_write
CORE_OBJ := $(CORE:%=$(BUILD)/obj/%.o)
WRIT_OBJ := $(WRITERS:%=$(BUILD)/obj/%.o)
LIBCORE  := $(BUILD)/librtmcore.a
LIBWRIT  := $(BUILD)/librtmwrite.a
LIBS     := $(LZO_LIBS) -lm

PROGS    := $(BUILD)/rtmcat $(BUILD)/rtmgen $(BUILD)/rtmfs
UNIT     := $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
UNIT_BIN := $(UNIT:%=$(BUILD)/tests/%)

.PHONY: all check bench demo fuzz tsan stress valgrind install uninstall clean deps
all: $(PROGS)

# The FUSE front end: the only part that links libfuse3.
FUSE_CFLAGS := $(shell $(PKG) --cflags fuse3 2>/dev/null)
FUSE_LIBS   := $(shell $(PKG) --libs fuse3 2>/dev/null || echo -lfuse3)
RTMFS_OBJ   := $(BUILD)/obj/rtmfs.o $(BUILD)/obj/cache.o $(BUILD)/obj/loader.o

$(BUILD)/obj/rtmfs.o: CFLAGS += $(FUSE_CFLAGS)

$(BUILD)/rtmfs: $(RTMFS_OBJ) $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ $(FUSE_LIBS) $(LIBS) -lpthread

# The cache's and the loader's unit tests link those objects (and threads).
CACHE_OBJ := $(BUILD)/obj/cache.o $(BUILD)/obj/loader.o
$(BUILD)/tests/test_cache $(BUILD)/tests/test_loader: $(BUILD)/tests/%: tests/%.c \
		tests/testutil.h $(CACHE_OBJ) $(LIBWRIT) $(LIBCORE) | $(BUILD)/tests
	$(CC) $(CFLAGS) $(CMOCKA_CFLAGS) -Itests -o $@ $< $(CACHE_OBJ) \
		$(LIBWRIT) $(LIBCORE) $(LDFLAGS) $(CMOCKA_LIBS) $(LIBS) -lpthread


$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)/obj
	$(CC) $(CFLAGS) $(LZO_CFLAGS) -c $< -o $@

$(BUILD)/obj $(BUILD)/tests:
	mkdir -p $@

$(LIBCORE): $(CORE_OBJ)
	rm -f $@ && ar rcs $@ $^
$(LIBWRIT): $(WRIT_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/rtmcat: $(BUILD)/obj/rtmcat.o $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/rtmgen: $(BUILD)/obj/rtmgen.o $(LIBWRIT) $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(LIBWRIT) $(LIBCORE) | $(BUILD)/tests
	$(CC) $(CFLAGS) $(CMOCKA_CFLAGS) -Itests -o $@ $< $(LIBWRIT) $(LIBCORE) \
		$(LDFLAGS) $(CMOCKA_LIBS) $(LIBS)

check: all $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done
	@echo "== shell tests"
	@BUILD=$(BUILD) bash tests/run_shell_tests.sh

deps:
	@bash tests/deps.sh

demo: deps all
	@bash tests/demo.sh $(BUILD)

bench: all $(BUILD)/tests/bench_core
	@$(BUILD)/tests/bench_core
	@BUILD=$(BUILD) bash tests/bench_mount.sh
	@BUILD=$(BUILD) bash tests/bench_pbo.sh

# Fuzzing (clang's libFuzzer): make fuzz FUZZ_SECONDS=N runs each target for
# N seconds, seeded with generated files and ../shared/corpus when present.
# Crashes land in build-fuzz/crash-*; keep each as a regression test.
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build-fuzz
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -g -O1 -std=c11 -D_GNU_SOURCE -ffp-contract=off -Isrc \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRC     := $(CORE:%=src/%.c)
FUZZERS      := fuzz_rtm fuzz_skeleton fuzz_pbo

$(FUZZ_DIR)/%: tests/%.c $(FUZZ_SRC) $(wildcard src/*.h) | $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(LZO_CFLAGS) -o $@ $< $(FUZZ_SRC) $(LIBS)
$(FUZZ_DIR):
	mkdir -p $@

fuzz: $(FUZZERS:%=$(FUZZ_DIR)/%) $(BUILD)/tests/fuzz_seeds
	@bash tests/fuzz.sh $(FUZZ_DIR) $(BUILD) $(FUZZ_SECONDS)

# ThreadSanitizer over the cache under concurrent use (its unit tests).
TSAN_DIR := build-tsan
TSAN_SRC := $(CORE:%=src/%.c) $(WRITERS:%=src/%.c) src/cache.c src/loader.c
$(TSAN_DIR)/test_cache: tests/test_cache.c $(TSAN_SRC) $(wildcard src/*.h) tests/testutil.h
	mkdir -p $(TSAN_DIR)
	$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE -ffp-contract=off -Isrc -Itests -fsanitize=thread \
		$(LZO_CFLAGS) $(CMOCKA_CFLAGS) -o $@ $< $(TSAN_SRC) $(CMOCKA_LIBS) $(LIBS) -lpthread
tsan: $(TSAN_DIR)/test_cache
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_DIR)/test_cache

# Eight parallel readers against a mount whose source keeps changing.
STRESS_SECONDS ?= 60
stress: all
	@BUILD=$(BUILD) bash tests/stress_mount.sh $(STRESS_SECONDS)

# valgrind memcheck over rtmcat for every file of the corpus.
valgrind: all
	@bash tests/valgrind_rtmcat.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/rtmcat $(BUILD)/rtmfs $(DESTDIR)$(PREFIX)/bin/
	install -m 644 man/rtmcat.1 man/rtmfs.1 $(DESTDIR)$(PREFIX)/share/man/man1/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/rtmcat $(DESTDIR)$(PREFIX)/bin/rtmfs \
		$(DESTDIR)$(PREFIX)/share/man/man1/rtmcat.1 $(DESTDIR)$(PREFIX)/share/man/man1/rtmfs.1

clean:
	rm -rf build build-san build-fuzz build-tsan

#!/usr/bin/env bash
# bench_config_install.sh - the config reader over a whole install (issue
# 27, Speed): every config.bin of rtmgen -I's 400 archives (20,000
# animations), from the project's rapify writer, turned into text: MB/s of
# rapified input, CPU time, against the goal of 100 MB/s (bench_config
# TREE does the timing).  The tree is bench_install.sh's, kept in the same
# place between runs, so that make bench writes it once for both; a tree
# from an rtmgen that gave archives no config.bin (its summary has no
# config_bytes line) is written again.  Not a pass/fail test.
#   RTMFS_BENCH_INSTALL  animations in archives (default 20000: 400 archives)
#   RTMFS_BENCH_TREE     where the tree is kept (default /var/tmp/rtmfs-bench-install-N)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
# shellcheck source=tests/bench/bench_lib.sh
. tests/bench/bench_lib.sh
install_tree
"$BUILD/tests/bench_config" "$TREE"

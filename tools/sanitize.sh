#!/usr/bin/env bash
# Builds Fuselab's own code with AddressSanitizer + UndefinedBehaviorSanitizer (clang 15, no GUI)
# into build-asan/ and runs the CTest suites that need no Qt under it.
#   bash tools/sanitize.sh                 # the default suites (below)
#   bash tools/sanitize.sh -R 'parser|jit' # any ctest arguments instead
# LibTorch, OpenBLAS and LLVM are prebuilt and not instrumented, and neither are the kernels the
# JIT compiles at run time: ASan sees their allocations (malloc is intercepted) but not their
# accesses. Too slow for CI's 15 minutes on a 2-core machine (README: Tests).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${FUSELAB_ASAN_BUILD_DIR:-build-asan}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 \
    -DFUSELAB_BUILD_GUI=OFF -DFUSELAB_SANITIZE=ON
fi
cmake --build "$BUILD_DIR" --parallel "$(nproc)" --target fuselab test_parser test_graph test_format test_jit test_bench_timing

# detect_leaks=0: LibTorch's and OpenBLAS's one-time allocations, and reference cycles a script
#   makes on purpose (a list that holds itself), are never freed by design.
# allocator_may_return_null=1: an allocation ASan cannot serve is a bad_alloc (a MemoryError for
#   the script), as it is without ASan, not an ASan abort; hostile tests ask for terabytes.
# exitcode=86: a sanitizer report never passes for a script's expected exit code.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:exitcode=86:abort_on_error=0:print_summary=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=86}
export QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
# ASan makes the interpreter 2-4x slower: the hostile cases that build 10 million lists get more
# than the 30 s a case has in the normal build.
export FUSELAB_HOSTILE_WALL_S=${FUSELAB_HOSTILE_WALL_S:-120}
# A private compile cache: the sanitized build's kernels are compiled (and cache hits checked)
# afresh, never taken from the normal build's cache.
export FUSELAB_CACHE_DIR=${FUSELAB_CACHE_DIR:-$PWD/$BUILD_DIR/jit-cache}

if [ $# -eq 0 ]; then
  set -- -R '^(parser|graph|format|jit|bench_timing|hostile|capture_scenarios|compiler_cases|compiler_code|compiler_cache|fuzz_compile|oracle)$'
fi
start=$(date +%s)
status=0
ctest --test-dir "$BUILD_DIR" --output-on-failure --timeout 3600 "$@" || status=$?
echo "sanitize.sh: ctest exit $status after $(( $(date +%s) - start )) s ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ))"
exit $status

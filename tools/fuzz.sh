#!/usr/bin/env bash
# Builds and runs one libFuzzer target (tests/fuzz) under ASan + UBSan.
#   bash tools/fuzz.sh [--fast] parse|interp|explain [SECONDS | -runs=N] [more libFuzzer flags]
# Default: 60 seconds. Corpus, crashes and logs go to build-asan/fuzz/ (not committed); the
# kept crashing inputs of past campaigns (tests/fuzz/regressions/TARGET) are always run first.
# --fast: UBSan only, no ASan (build-fuzz/; 2026-12-07: fuzz_interp 101 inputs/s against 37/s under
# ASan, for campaigns of a million inputs); same corpus layout under build-fuzz/.
# Runs at nice 10, one fuzzing process (the machine is shared).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = --fast ]; then fast=1; shift; fi
target=${1:?usage: tools/fuzz.sh [--fast] parse|interp|explain [SECONDS|-runs=N] [libFuzzer flags]}
shift
case "$target" in parse|interp|explain) ;; *) echo "fuzz.sh: unknown target $target (parse, interp, explain)" >&2; exit 2 ;; esac
budget=-max_total_time=60
if [ $# -gt 0 ]; then
  case "$1" in
    -runs=*) budget=$1; shift ;;
    [0-9]*) budget=-max_total_time=$1; shift ;;
  esac
fi

sanitizers=address,undefined
BUILD_DIR=${FUSELAB_ASAN_BUILD_DIR:-build-asan}
if [ $fast = 1 ]; then sanitizers=undefined; BUILD_DIR=${FUSELAB_FUZZ_BUILD_DIR:-build-fuzz}; fi
if [ ! -f "$BUILD_DIR/build.ninja" ] || ! grep -q '^FUSELAB_FUZZ:BOOL=ON' "$BUILD_DIR/CMakeCache.txt" ||
   ! grep -q "^FUSELAB_SANITIZERS:STRING=$sanitizers\$" "$BUILD_DIR/CMakeCache.txt"; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 \
    -DFUSELAB_BUILD_GUI=OFF -DFUSELAB_FUZZ=ON -DFUSELAB_SANITIZERS=$sanitizers
fi
cmake --build "$BUILD_DIR" --parallel "$(nproc)" --target "fuzz_$target"

work=$BUILD_DIR/fuzz
corpus=$work/corpus/$target
seeds=$work/seeds
mkdir -p "$corpus" "$work/artifacts/$target" tests/fuzz/regressions/$target
[ -d "$seeds" ] || bash tools/fuzz_seeds.sh "$seeds"

# Leaks are not findings for the interpreter targets (LibTorch's one-time allocations; cycles a
# script makes on purpose); they are for the parser. allocator_may_return_null: a failed huge
# allocation is the script's MemoryError, as without ASan.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=$([ "$target" = parse ] && echo 1 || echo 0)}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export OMP_NUM_THREADS=1 FUSELAB_CACHE_DIR=$PWD/$work/jit-cache
timeout=10
[ "$target" = parse ] && timeout=5

log=$work/$target-$(date -u +%Y%m%dT%H%M%S).log
echo "fuzz.sh: fuzz_$target $budget, log $log"
set +e
nice -n 10 "$BUILD_DIR/tests/fuzz/fuzz_$target" \
  -max_len=4096 -timeout=$timeout -rss_limit_mb=4096 -print_final_stats=1 \
  -dict=tests/fuzz/python.dict -artifact_prefix="$work/artifacts/$target/" \
  "$budget" "$@" "$corpus" tests/fuzz/regressions/$target "$seeds" 2>&1 | tee "$log" | grep -E '^(#[0-9]+ +(INITED|DONE|pulse)|==|SUMMARY|stat::|Done|INFO: (Seed|Loaded))|artifact' 
status=${PIPESTATUS[0]}
echo "fuzz.sh: exit $status; corpus $(ls "$corpus" | wc -l) inputs; artifacts: $(ls "$work/artifacts/$target" | wc -l)"
exit "$status"

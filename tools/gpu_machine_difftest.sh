#!/usr/bin/env bash
# The differential test on the GPU machine's configuration (PyTorch's own LibTorch, the
# system-compiler JIT, no Qt): builds fuselab there, runs the device findings, then a long
# differential run over all cores.
#   bash tools/gpu_machine_difftest.sh SEED MINUTES [COUNT] [START]
# A run stopped by MINUTES says which index to go on from (START of the next run).
# Output (programs that failed, shrunk) goes to $OUT/difftest when OUT is set.
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:?seed}
minutes=${2:?minutes}
count=${3:-200000}
start_index=${4:-0}
prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if [ ! -f build-gpu/CMakeCache.txt ]; then
  cmake -S . -B build-gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DFUSELAB_BUILD_GUI=OFF -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
fi
start=$(date +%s)
cmake --build build-gpu -j"$(nproc)" --target fuselab >/dev/null
echo "build: $(( $(date +%s) - start )) s; $(python3 -c 'import torch; print("torch", torch.__version__)'); $(nproc) cores"
if [ "$start_index" = 0 ]; then
  echo "== device findings"
  build-gpu/app/fuselab run tests/difftest/device_findings/programs.py || true
fi
echo "== differential run"
keep=${OUT:-/tmp}/difftest
mkdir -p "$keep"
python3 tests/difftest/run_difftest.py --fuselab build-gpu/app/fuselab --seed "$seed" --start "$start_index" --count "$count" \
  --jobs "$(nproc)" --minutes "$minutes" --progress 200 --keep-dir "$keep"

#!/usr/bin/env bash
# README command 2 (and .ci/run): install, build, and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
export QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
# four slots: the two-job harnesses take two each (tests/CMakeLists.txt: PROCESSORS)
ctest --test-dir "${FUSELAB_BUILD_DIR:-build}" --output-on-failure -j "${FUSELAB_TEST_JOBS:-4}" "$@"

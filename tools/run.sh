#!/usr/bin/env bash
# README command 1: install, build, and run the main job on the default model. With a display the
# explorer window opens; without one, the headless report is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
exec "${FUSELAB_BUILD_DIR:-build}/app/fuselab" "$@"

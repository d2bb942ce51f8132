#!/usr/bin/env bash
# Collects the seed corpus for the fuzz targets (tests/fuzz) from the repository's scripts:
# tests/oracle/scripts, tests/capture/scenarios, tests/hostile/cases, tests/compiler/cases,
# resources/models (with the anchor suite). Files are named by content hash, so duplicates merge.
#   bash tools/fuzz_seeds.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/fuzz_seeds.sh OUT_DIR}
mkdir -p "$out"
n=0
for dir in tests/oracle/scripts tests/capture/scenarios tests/hostile/cases tests/compiler/cases resources/models; do
  [ -d "$dir" ] || continue
  while IFS= read -r -d '' f; do
    cp "$f" "$out/$(sha1sum "$f" | cut -c1-16)"
    n=$((n + 1))
  done < <(find "$dir" -type f -name '*.py' -print0)
done
echo "fuzz_seeds.sh: $n scripts -> $(ls "$out" | wc -l) seeds in $out"

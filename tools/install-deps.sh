#!/usr/bin/env bash
# Installs the Debian packages Fuselab builds and tests with, skipping what is already there.
# Used by both README commands and by .ci/run. Needs root (or sudo) on Debian 12.
set -euo pipefail

pkgs=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-base-dev-tools libgl-dev libxkbcommon-dev
  libgraphviz-dev
  llvm-15-dev libclang-15-dev clang-15
  libtorch-dev libopenblas0-pthread
  python3-torch
  xvfb xauth
)

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "fuselab: all dependencies present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "fuselab: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"

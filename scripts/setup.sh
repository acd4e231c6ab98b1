#!/usr/bin/env bash
# Installs everything kaji needs on a fresh Debian 12 machine, then configures and
# builds it into build/. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(cmake ninja-build g++ llvm-19-dev llvm-19-tools libzstd-dev zlib1g-dev libxml2-dev
  libedit-dev libgtest-dev clang-19 libclang-rt-19-dev)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

python3 -m pip install -q --disable-pip-version-check -r requirements-dev.txt

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DKAJI_BUILD_PYTHON=ON
cmake --build build

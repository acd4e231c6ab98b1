#!/usr/bin/env bash
# Configures build-sanitize/, the one instrumented tree that scripts/sanitize.sh tests and
# scripts/fuzz.sh fuzzes, and builds the targets named (all when none): clang-19 with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage (-DKAJI_FUZZ=ON).
# One tree for both halves the compile time of a CI run. -O1 with line tables keeps the
# build fast and still gives every report its file:line; assertions stay on (no NDEBUG).
set -euo pipefail
cd "$(dirname "$0")/.."

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang-19 CXX=clang++-19 cmake -S . -B build-sanitize -G Ninja -DKAJI_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  "${launcher[@]}" >/dev/null
targets=()
(($#)) && targets=(--target "$@")
cmake --build build-sanitize "${targets[@]}"

#!/usr/bin/env bash
# Runs every test: C++ unit tests (ctest), compiler-stage tests (lit) and the
# Python tests (pytest). Builds first, so it also works right after a pull.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --build build
status=0
ctest --test-dir build --output-on-failure -j2 || status=1
lit -sv build/test/lit || status=1
python_tests=()
for dir in test/python test/kernels; do
  [ -d "$dir" ] && python_tests+=("$dir")
done
if ((${#python_tests[@]})); then
  python3 -m pytest -q "${python_tests[@]}" || status=1
fi
exit $status

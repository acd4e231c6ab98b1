#!/usr/bin/env bash
# The GPU checks, on a machine with a GPU but no LLVM: builds only the Python
# extension against an installed core (`cmake --install build --prefix install` on the
# build machine, then copy install/ over), then runs the Python and kernel tests on
# every target and the GPU benchmarks.
#   bash scripts/gpu_check.sh [CORE_PREFIX]    (default: install)
set -uo pipefail
cd "$(dirname "$0")/.."
prefix=$(realpath "${1:-install}")
log=${OUT:-/tmp}/gpu_check_build.log

if ! { cmake -S python -B build-gpu -DCMAKE_BUILD_TYPE=Release -DKAJI_CORE_PREFIX="$prefix" &&
  cmake --build build-gpu -j"$(nproc)"; } >"$log" 2>&1; then
  tail -40 "$log"
  exit 1
fi
export PYTHONPATH=$PWD/python
status=0
KAJI_TEST_TARGETS=cpu,cuda python3 -m pytest -q -p no:cacheprovider test/python test/kernels |
  tail -25 || status=1
for script in examples/vector_add.py examples/monte_carlo_pi.py bench/launch_overhead.py \
  bench/first_call.py bench/saxpy_bandwidth.py; do
  echo "== python3 $script"
  python3 "$script" || status=1
done
echo "== bench/launch_floor.cu (the driver's floor beside bench/launch_overhead.py)"
floor=$(mktemp)
{ nvcc -O2 -arch=native -o "$floor" bench/launch_floor.cu -lcuda && "$floor"; } || status=1
rm -f "$floor"
exit $status

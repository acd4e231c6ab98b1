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
# pytest-xdist spreads the tests over every core: the long differential tests then overlap
# with the rest instead of running after it.
pytest_workers=(-n "${KAJI_TEST_WORKERS:-auto}")
if ((${#python_tests[@]})); then
  # Where NVRTC and nvJitLink are present, the kernel suite also assembles every kernel's PTX
  # for each GPU architecture, fast math off and on, by both backends
  # (test/kernels/ptxas_sweep.py).
  ptxas_sweep=0
  if ls "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnvrtc.so* >/dev/null 2>&1 &&
    ls "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnvJitLink.so* >/dev/null 2>&1; then
    ptxas_sweep=1
  fi
  KAJI_TEST_PTXAS=$ptxas_sweep python3 -m pytest -q "${pytest_workers[@]}" "${python_tests[@]}" ||
    status=1
  # The kernel tests of float arithmetic, conversions and math functions again on the baseline
  # x86-64 CPU model: no F16C, FMA or SSE4.1, so the host JIT calls the compiler-runtime and
  # libm helpers that a newer CPU does in instructions.
  baseline_cpu_tests=(test/kernels/test_{half_precision,float,complex,differential_half,differential_contraction}*.py
    test/kernels/test_{bfloat16,integer_to_float16_range,fma_contraction,builtins_math,math_complete,libdevice,conversions,arithmetic}.py)
  KAJI_TEST_TARGETS=cpu KAJI_HOST_CPU=x86-64 \
    python3 -m pytest -q "${pytest_workers[@]}" "${baseline_cpu_tests[@]}" || status=1
fi
# Every benchmark kernel in every spelling: its results on the cpu target against numpy, its
# PTX through ptxas, its CUDA C++ through nvcc (bench/kernels/run.py --check), where nvcc is.
cuda_bin="${CUDA_HOME:-/usr/local/cuda}/bin"
if [ -x "$cuda_bin/nvcc" ]; then
  PATH="$cuda_bin:$PATH" PYTHONPATH=python python3 bench/kernels/run.py --check || status=1
fi
# The C++ program of examples/aot, its kernels compiled ahead of time, builds against the
# toolkit's cuda.h and driver (its stub where there is no GPU); it runs where there is one.
if [ -x "$cuda_bin/fatbinary" ]; then
  if PATH="$cuda_bin:$PATH" cmake -S examples/aot -B build/examples-aot \
    -DKAJI_COMPILE="$PWD/build/bin/kaji-compile" >/dev/null &&
    PATH="$cuda_bin:$PATH" cmake --build build/examples-aot; then
    if nvidia-smi -L >/dev/null 2>&1; then
      build/examples-aot/aot_example || status=1
    fi
  else
    status=1
  fi
fi
# The wheel of this Python, its extension built against build/'s core, installed into a fresh
# virtual environment: a kernel and test/python from the installed package (source tree off
# the path).
python_version=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
bash scripts/build_wheels.sh --core build build/wheelhouse "$python_version" || status=1
exit $status

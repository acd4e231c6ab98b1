# Numba's type objects as a kernel's globals: conversions and local-array dtypes.
# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir | %FileCheck %s
import kaji
from kaji.types import int16
from numba import float32
from numba import types


def k(a):
    scratch = kaji.local.array(2, dtype=int16)
    scratch[0] = a[0]
    a[1] = float32(a[0]) + types.uint8(scratch[0])

# CHECK: local_array [2] : array<i16, 1, C, local>
# CHECK-DAG: cast %{{[0-9]+}} : f64 to f32
# CHECK-DAG: cast %{{[0-9]+}} : i16 to u8

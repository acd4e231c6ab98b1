# The CLI lays out `np.dtype([...])` at module level as numpy does (packed, or align=True:
# each field at a multiple of its alignment, the itemsize padded to the widest), so local and
# shared arrays of it compile from the file's text. A form it does not evaluate (a nested
# record) leaves the name unknown to kernels.
# RUN: %kaji-compile %s --kernel packed --emit ir | %FileCheck %s --check-prefix=PACKED
# RUN: %kaji-compile %s --kernel aligned --emit ir | %FileCheck %s --check-prefix=ALIGNED
# RUN: %not %kaji-compile %s --kernel nested --emit ir 2>&1 | %FileCheck %s --check-prefix=NESTED
import numpy as np
from numpy import int16
from kaji import cuda

N = 3
PACKED = np.dtype([("x", np.float32), ("tag", int16), ("v", np.float64, N)])
ALIGNED = np.dtype([("tag", np.int16), ("c", np.complex64), ("m", np.float64, (2, 2))],
                   align=True)
NESTED = np.dtype([("inner", PACKED)])


@cuda.jit("void(float32[:])")
def packed(out):
    local = cuda.local.array(2, PACKED)
    local[1].tag = 7
    out[1] = local[1].tag


@cuda.jit("void(float64[:])")
def aligned(out):
    tile = cuda.shared.array(4, dtype=ALIGNED)
    tile[0].m[1, 1] = out[0]
    out[1] = tile[0].m[1, 1]


@cuda.jit("void(float32[:])")
def nested(out):
    local = cuda.local.array(2, NESTED)

# PACKED: local_array [2] : array<record<30, align 2, x: f32 at 0, tag: i16 at 4, v: f64[3] at 6>, 1, C, local>
# ALIGNED: shared_array [4] : array<record<48, align 8, tag: i16 at 0, c: c64 at 4, m: f64[2, 2] at 16>, 1, C, shared>
# NESTED: error: {{.*}}NESTED

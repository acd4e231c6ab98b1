# Local and shared arrays of records are aligned bytes in CUDA C++ (alignment= down to the
# record's own, 8 here; else 16), viewed with the record's size as stride; a record's field
# is a typed view at its offset.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

from kaji import cuda

REC = np.dtype([("n", np.int32), ("w", np.float64)], align=True)


@cuda.jit("void(float64[:])")
def k(out):
    local = cuda.local.array(3, REC, alignment=8)
    tile = cuda.shared.array(5, dtype=REC)
    i = cuda.grid(1)
    local[i % 3].w = out[i]
    tile[i % 5] = local[i % 3]
    out[i] = tile[(i + 1) % 5].w

# CHECK-DAG: __align__(8) u8 local{{[0-9]+}}[48];
# CHECK-DAG: __shared__ __align__(16) u8 shared{{[0-9]+}}[80];
# CHECK-DAG: [[LOCAL:v[0-9]+]] = kaji::array<u8, 1>{local{{[0-9]+}}, {3}, {16}};
# CHECK-DAG: [[SHARED:v[0-9]+]] = kaji::array<u8, 1>{shared{{[0-9]+}}, {5}, {16}};
# CHECK-DAG: = kaji::array<f64, 1>{(f64 *)((char *)v{{[0-9]+}}.data + 8), {0}, {0}};

# RUN: %kaji-compile %s --emit ptx > %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# A shared array of 24-byte records is 24 bytes each, aligned to 16 (the default), not to
# the record's size, which is no power of two; a field is read at its offset.
import numpy as np

from kaji import cuda

REC = np.dtype([("a", np.float32), ("n", np.int32), ("w", np.float64), ("z", np.float64)],
               align=True)


@cuda.jit("void(float64[:])")
def k(out):
    tile = cuda.shared.array(4, REC)
    i = cuda.threadIdx.x
    tile[i % 4].w = out[i]
    cuda.syncthreads()
    out[i] = tile[(i + 1) % 4].w

# CHECK: .shared .align 16 .b8 {{.*}}[96];
# CHECK: st.shared.f64
# CHECK: ld.shared.f64

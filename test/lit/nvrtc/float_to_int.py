# float -> int truncates and saturates (NaN -> 0), as the LLVM path's fpto[su]i.sat; int ->
# float16 rounds once.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

import kaji


@kaji.jit("void(int32[:], float32[:], float16[:], int64[:])")
def convert(a, f, h, big):
    a[0] = np.int32(f[0])
    big[0] = np.int64(h[0])
    h[1] = np.float16(big[1])
    f[1] = np.float32(a[1])

# CHECK-DAG: kaji::to_int<i32>(v{{[0-9]+}})
# CHECK-DAG: kaji::to_int<i64>(f32(v{{[0-9]+}}))
# CHECK-DAG: kaji::int_to_f16(v{{[0-9]+}})
# CHECK-DAG: f32(v{{[0-9]+}})

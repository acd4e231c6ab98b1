# a.ctypes.data is the generic address of the first element: an argument's is its pointer, a
# local array's is converted from the local window (cvta.local), a shared array's from the
# shared one; the CUDA C++ backend casts the pointer.
# RUN: %kaji-compile %s --kernel k --sig 'void(uint64[::1], float32[:])' --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --kernel k --sig 'void(uint64[::1], float32[:])' --emit cuda | %FileCheck %s --check-prefix=CUDA
import numpy as np

import kaji
from kaji import cuda


@kaji.jit
def k(out, values):
    local = cuda.local.array(4, np.float32, alignment=16)
    shared = cuda.shared.array(4, np.float32)
    local[0] = values[0]
    shared[0] = values[1]
    out[0] = values.ctypes.data
    out[1] = local.ctypes.data
    out[2] = shared.ctypes.data
    out[3] = local[0] + shared[0]

# CHECK-DAG: cvta.local.u64
# CHECK-DAG: cvta.shared.u64
# CUDA: reinterpret_cast<u64>({{.*}}.data)

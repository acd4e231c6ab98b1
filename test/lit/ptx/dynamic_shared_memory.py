# Every cuda.shared.array(0, dtype) is the launch's dynamic shared memory: one extern .shared
# array per module, aligned to the most any of them asks for; its extent is the size in the
# %dynamic_smem_size register over the element size. alignment= aligns static arrays too.
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[:], int32[:])")
def stage(out, counts):
    values = cuda.shared.array(0, np.float32)
    wide = cuda.shared.array(0, dtype=np.float64, alignment=128)
    tile = cuda.shared.array(64, np.float32, alignment=256)
    i = cuda.threadIdx.x
    values[i] = out[i]
    tile[i] = 1.0
    cuda.syncthreads()
    out[i] = values[values.size - 1 - i] + tile[i] + wide[0]
    counts[0] = values.size

# IR: dynamic_shared_array : array<f32, 1, C, shared>
# IR: dynamic_shared_array align 128 : array<f64, 1, C, shared>
# IR: shared_array [64] align 256 : array<f32, 1, C, shared>
# CHECK-DAG: .extern .shared .align 128 .b8 kaji_dynamic_shared[];
# CHECK-DAG: .shared .align 256 .b8 {{.*}}stage{{.*}}shared0[256];
# CHECK: mov.u32 %r{{[0-9]+}}, %dynamic_smem_size;

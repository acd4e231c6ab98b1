# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

from kaji import cuda


@cuda.jit("void(int32[:], float32[:], uint32[:])")
def builtins(a, f, u):
    i = cuda.grid(1)
    cuda.atomic.sub(f, 0, f[i])
    cuda.atomic.max(a, 1, i)
    cuda.atomic.min(f, 2, f[i])
    cuda.atomic.exch(a, 3, i)
    cuda.atomic.and_(a, 4, i)
    cuda.atomic.cas(a, 5, 0, i)
    cuda.atomic.inc(u, 0, 9)
    scratch = cuda.local.array(4, np.int32)
    scratch[i % 4] = cuda.popc(i) + cuda.clz(i) + cuda.ffs(i) + cuda.brev(i)
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()
    f[i] = cuda.fma(f[i], f[i], 1.0)
    a[i] = scratch[0] + cuda.laneid

# CHECK: .visible .entry builtins(
# CHECK-DAG: atom.global.add.f32
# CHECK-DAG: atom.global.max.s32
# CHECK-DAG: atom.global.exch.b32
# CHECK-DAG: atom.global.and.b32
# CHECK-DAG: atom.global.cas.b32
# CHECK-DAG: popc.b64
# CHECK-DAG: clz.b64
# CHECK-DAG: brev.b64
# CHECK-DAG: membar.cta
# CHECK-DAG: membar.gl
# CHECK-DAG: membar.sys
# CHECK-DAG: fma.rn.f32

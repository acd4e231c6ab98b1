# An array of vectors holds CUDA's layout (float4: 16 bytes, 16-aligned): a vector element is
# one ld.v4 / st.v4 of shared or local memory; a three-lane one is aligned as its lane.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
from kaji import cuda


@cuda.jit("void(float32[:], int32)")
def k(a, i):
    tile = cuda.shared.array(32, dtype=cuda.float32x4)
    t = cuda.threadIdx.x
    tile[t] = cuda.float4(a[t], a[t + 1], a[t + 2], a[t + 3])
    cuda.syncthreads()
    v = tile[(t + 1) % 32]
    points = cuda.local.array(4, dtype=cuda.int32x3)
    for j in range(4):
        points[j] = cuda.int3(i + j, i, j)
    p = points[i % 4]
    a[t] = v.x + v.y + v.z + v.w + p.x + p.z

# IR: shared_array [32] : array<vec<f32, 4>, 1, C, shared>
# IR: load %{{[0-9]+}}[%{{[0-9]+}}] : vec<f32, 4>
# IR: local_array [4] : array<vec<i32, 3>, 1, C, local>
# IR: load %{{[0-9]+}}[%{{[0-9]+}}] : vec<i32, 3>

# CHECK: .local .align 16 .b8 __local_depot{{[0-9]+}}[48];
# CHECK: .shared .align 16 .b8 {{.*}}[512];
# CHECK: st.shared.v4.f32
# CHECK: ld.shared.v4.f32
# CHECK: st.local.u32 [%rd{{[0-9]+}}+20],

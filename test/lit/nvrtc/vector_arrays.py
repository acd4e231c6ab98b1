# An array of vectors is a kaji::array of the prelude's kaji::vec<T, n>: its storage is an
# aligned array of them, loads and stores move whole vectors.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float64[:])")
def k(a):
    pairs = cuda.local.array(4, dtype=cuda.float64x2)
    tile = cuda.shared.array((2, 8), dtype=cuda.uchar3)
    t = cuda.threadIdx.x
    for j in range(4):
        pairs[j] = cuda.double2(a[j], a[j + 4])
    tile[t % 2, t % 8] = cuda.uchar3(t, 1, 2)
    cuda.syncthreads()
    a[t] = pairs[t % 4].y + tile[1, t % 8].x

# CHECK: __align__(16) kaji::vec<f64, 2> local{{[0-9]*}}[4];
# CHECK: __shared__ __align__(16) kaji::vec<u8, 3> shared{{[0-9]*}}[16];
# CHECK: kaji::array<kaji::vec<f64, 2>, 1>{local{{[0-9]*}}, {4}, {16}}
# CHECK: kaji::array<kaji::vec<u8, 3>, 2>{shared{{[0-9]*}}, {2, 8}, {24, 3}}

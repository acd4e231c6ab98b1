# A contiguous axis is indexed in elements, so the taps of a guarded convolution are loads
# at constant offsets from one address ([%rd+-8], [%rd+8]), as nvcc's are, instead of one
# address computation per tap (indexing in bytes gave `shl (i + k - 2), 2`, which NVPTX
# cannot split).
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s
import kaji


@kaji.jit("void(float32[::1], float32[::1], float32[::1])")
def convolve(out, x, weights):
    i = kaji.grid(1)
    if i < x.size:
        acc = kaji.float32(0)
        for k in range(5):
            j = i + k - 2
            if j >= 0 and j < x.size:
                acc += weights[k] * x[j]
        out[i] = acc

# CHECK-LABEL: .entry convolve(
# CHECK: ld.global.f32 {{%f[0-9]+}}, [[[ADDRESS:%rd[0-9]+]]+-8];
# CHECK: ld.global.f32 {{%f[0-9]+}}, [[[ADDRESS]]+-4];
# CHECK: ld.global.f32 {{%f[0-9]+}}, [[[ADDRESS]]];
# CHECK: ld.global.f32 {{%f[0-9]+}}, [[[ADDRESS]]+4];
# CHECK: ld.global.f32 {{%f[0-9]+}}, [[[ADDRESS]]+8];

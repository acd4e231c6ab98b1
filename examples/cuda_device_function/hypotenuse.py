# A kaji kernel calling CUDA C++ device functions from ops.cu (Numba's cuda.declare_device):
# NVRTC compiles ops.cu, the driver's linker joins it to the kernel. Needs a GPU.
#
# With a file argument, the functions come from that file instead, e.g. LTO-IR made by
#   nvcc -dlto -ltoir -arch=sm_90 -dc ops.cu -o ops.ltoir
# and `python3 hypotenuse.py ops.ltoir`: nvJitLink links it (README.md).
import os
import sys

import numpy as np

from kaji import cuda

OPS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "ops.cu")

hypotenuse = cuda.declare_device("hypotenuse", "float32(float32, float32)", link=OPS)
clamp_index = cuda.declare_device("clamp_index", "int64(int64, int64)", link=OPS)


@cuda.jit("void(float32[:], float32[:], float32[:])")
def hypotenuses(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        j = clamp_index(i + 1, a.size)  # each thread also reads its neighbour
        out[i] = hypotenuse(a[i], b[i]) + hypotenuse(a[j], b[j])


if __name__ == "__main__":
    a = np.arange(1000, dtype=np.float32)
    b = np.full_like(a, 2.0)
    out = np.zeros_like(a)
    hypotenuses[(a.size + 127) // 128, 128](out, a, b)
    expected = np.hypot(a, b) + np.hypot(np.append(a[1:], a[-1]), np.append(b[1:], b[-1]))
    print("max error:", float(np.max(np.abs(out - expected))))

"""The classic Numba vector addition, written for kaji with the Numba spelling.

    python examples/vector_add.py

It runs on the GPU when one is usable and on the CPU otherwise (KAJI_TARGET=cpu|cuda
chooses); the code is the same either way."""

import sys
import warnings

import numpy as np

import kaji
from kaji import cuda


# Without a GPU kaji says once that kernels run on the CPU; this example prints the target.
warnings.simplefilter("ignore", kaji.TargetFallbackWarning)


@cuda.jit
def vector_add(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def main():
    n = 1 << 20
    x = np.random.rand(n).astype(np.float32)
    y = np.random.rand(n).astype(np.float32)
    d_x, d_y = cuda.to_device(x), cuda.to_device(y)
    d_out = cuda.device_array_like(x)
    threads = 256
    blocks = (n + threads - 1) // threads
    vector_add[blocks, threads](d_out, d_x, d_y)
    out = d_out.copy_to_host()
    ok = np.array_equal(out, x + y)
    print(f"vector_add of {n} float32 on target {vector_add.target}: "
          f"{'OK' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""The classic Numba vector addition, written for kaji with the Numba spelling.

    python examples/vector_add.py

Without a GPU it says so and exits 0 (kernels run on the CPU in a later version)."""

import sys

import numpy as np

from kaji import cuda


@cuda.jit
def vector_add(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def main():
    if not cuda.is_available():
        print(f"no GPU available ({cuda.unavailable_reason()}); nothing to run")
        return 0
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
    print(f"vector_add of {n} float32: {'OK' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Each thread's sum of every gridsize-th element, the grid-stride loop spelled with while."""

import numpy as np
from kaji import cuda
from grid_stride_problem import problem  # noqa: F401 (run.py reads it from here)


@cuda.jit
def grid_stride_sum_while(partials, x):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    acc = np.float32(0)
    while i < x.size:
        acc += x[i]
        i += stride
    partials[cuda.grid(1)] = acc

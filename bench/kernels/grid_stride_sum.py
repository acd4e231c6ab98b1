"""Each thread's sum of every gridsize-th element, the grid-stride loop spelled with range()."""

import numpy as np
from kaji import cuda
from grid_stride_problem import problem  # noqa: F401 (run.py reads it from here)


@cuda.jit
def grid_stride_sum(partials, x):
    acc = np.float32(0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    partials[cuda.grid(1)] = acc

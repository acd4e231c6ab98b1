"""saxpy.py's out = a*x + y spelled as a grid-stride loop and launched as saxpy.py is, with a
thread per element: each thread's loop runs once, so what the loop costs around one body is
what counts."""

from kaji import cuda
from saxpy import problem  # noqa: F401 (run.py reads it from here)


@cuda.jit
def saxpy_grid_stride(out, a, x, y):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]

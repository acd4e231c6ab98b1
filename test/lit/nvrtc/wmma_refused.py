# The CUDA C++ backend has no matrix fragments yet: a kernel using cuda.wmma is a clear error
# there, naming the backend that compiles it.
# RUN: %not %kaji-compile %s --backend nvrtc --emit cuda 2>&1 | %FileCheck %s
# CHECK: wmma_refused.py:12:9: error: the CUDA C++ (nvrtc) backend does not compile matrix fragments; the llvm backend does
import numpy as np
from kaji import cuda
from kaji.cuda import wmma


@cuda.jit("void(float32[:, ::1])")
def fill(out):
    f = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.fill_fragment(f, 1.0)
    wmma.store_matrix_sync(out, f, 16, wmma.mem_row_major)

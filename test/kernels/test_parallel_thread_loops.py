"""Loops over a block's threads on the cpu target say that their iterations do not depend on each
other through memory (docs/cpu-backend.md, "Threads' loops are parallel"): the vectoriser then
widens them with no run-time overlap tests. Arrays that alias each other are fine as long as no
two threads touch one element. (A thread's local arrays, one alloca every thread of the loop
reuses, stay out of that claim: test_program_differential_findings.py, 20261123/53.)"""

import numpy as np

from kaji import cuda


def scale_in_place(out, x, factor):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * factor + 1.0


def test_arrays_that_are_one_array(jit, target):
    # `out` and `x` are the same array: each thread reads and writes only its own element. (On
    # the GPU a device array: a host array passed twice is copied there twice, and both back.)
    x = np.random.default_rng(2).random(1000)
    both = x.copy() if target == "cpu" else cuda.to_device(x)
    jit(scale_in_place)[8, 128](both, both, 3.0)
    result = both if target == "cpu" else both.copy_to_host()
    np.testing.assert_allclose(result, x * 3.0 + 1.0, rtol=1e-15)

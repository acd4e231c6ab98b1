"""Recursion on the GPU: a thread's stack is the driver's CU_LIMIT_STACK_SIZE, which the
driver cannot size for recursion. Past it the launch fails as an illegal address and the
context is unusable, so each case runs in a process of its own; the error must name the
recursive function and the way out (docs/numba-compat.md, "Recursion")."""

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.gpu

RECURSIVE_KERNEL = textwrap.dedent("""
    import sys
    import numpy as np
    from kaji import cuda

    @cuda.jit(device=True)
    def depth(a, n):
        if n <= 0:
            return 0
        r = depth(a, n - 1)
        a[n % 4] += r
        return r + a[(n * 7) % 4]

    @cuda.jit
    def kernel(out, n):
        out[0] = depth(out, n)

    levels, stack = int(sys.argv[1]), int(sys.argv[2])
    if stack:
        cuda.current_context().set_stack_size(stack)
    print("stack", cuda.current_context().stack_size)
    out = cuda.to_device(np.zeros(4, np.int64))
    kernel[1, 32](out, levels)
    print("result", out.copy_to_host()[0])
""")


def _run(levels, stack):
    return subprocess.run([sys.executable, "-c", RECURSIVE_KERNEL, str(levels), str(stack)],
                          capture_output=True, text=True, timeout=120)


def test_recursion_past_the_stack_names_the_recursive_function_and_the_limit():
    result = _run(100_000, 0)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in result.stderr or "LAUNCH_FAILED" in result.stderr
    assert "kernel 'kernel' was launched on device 0" in result.stderr
    assert "'depth" in result.stderr and "recursively" in result.stderr
    assert "set_stack_size" in result.stderr


def test_a_larger_stack_holds_a_deeper_recursion():
    shallow = _run(200, 0)
    assert shallow.returncode == 1, shallow.stdout + shallow.stderr
    deep = _run(200, 64 * 1024)
    assert deep.returncode == 0, deep.stderr
    assert "result 0" in deep.stdout
    assert int(deep.stdout.split()[1]) >= 64 * 1024

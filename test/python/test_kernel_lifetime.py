"""A kernel defined at module level sits in its own module's globals: kernel → globals →
kernel is a reference cycle, through the C++ dispatcher, that Python's cycle collector must
see and free."""

import gc
import pathlib
import weakref

import numpy as np

import kaji

SOURCE = '''
import kaji


@kaji.jit(target="cpu")
def fill(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] = 7.0


LAUNCH = fill[1, 4]  # a configured launch in the globals too
'''


def module_kernel(tmp_path, index):
    """`fill` defined at the top level of a fresh module namespace, launched once."""
    path = pathlib.Path(tmp_path) / f"kernels_{index}.py"
    path.write_text(SOURCE)
    namespace = {"__name__": f"kernels_{index}"}
    exec(compile(SOURCE, str(path), "exec"), namespace)
    kernel = namespace["fill"]
    a = np.zeros(4, np.float32)
    namespace["LAUNCH"](a)
    assert (a == 7.0).all()
    return kernel


def test_module_level_kernels_are_collected(tmp_path):
    kernels = [module_kernel(tmp_path, i) for i in range(20)]
    alive = [weakref.ref(kernel) for kernel in kernels]
    namespaces = [weakref.ref(kernel.py_func) for kernel in kernels]
    survivor = kernels.pop()
    del kernels
    gc.collect()
    assert [ref() is None for ref in alive[:-1]] == [True] * 19
    assert [ref() is None for ref in namespaces[:-1]] == [True] * 19
    a = np.zeros(4, np.float32)
    survivor[1, 4](a)
    assert (a == 7.0).all()


def test_a_collected_kernels_configured_launch_keeps_it_working(tmp_path):
    launch = module_kernel(tmp_path, "launch")[1, 4]
    gc.collect()
    a = np.zeros(4, np.float32)
    launch(a)
    assert (a == 7.0).all()

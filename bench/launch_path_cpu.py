"""The Python-side cost of a launch, measured where there is no GPU.

Runs on the cpu target (KAJI_TARGET=cpu), whose launches go through the same Python-side
path as cuda launches (configuration object, argument reading, specialization lookup,
parameter packing) and then run one block of one thread inline: so a launch here is about
the Python-side cost plus a near-empty kernel (all of it on the calling thread, whose CPU
time is what is measured: the dev VM is shared). It also times kaji.typeof(value, "cuda"),
which reads one argument the way a cuda launch does, for stand-ins of CuPy arrays and PyTorch
tensors (classes named and placed like them, see test/python/test_known_arrays.py) and for
an object exporting only __cuda_array_interface__. The stand-ins' attribute reads are Python
attributes, not CuPy's or PyTorch's: these numbers show the shape of the cost, never the
libraries' own (bench/launch_overhead.py measures those on a GPU).

    python bench/launch_path_cpu.py [--runs 7] [--calls 100000]
"""

import argparse
import os
import sys
import time
import types

os.environ["KAJI_TARGET"] = "cpu"

import numpy as np  # noqa: E402

import kaji  # noqa: E402
from timing import median_per_call  # noqa: E402


def per_call_ns(call, runs, calls):
    return median_per_call(call, runs, calls, warmup=1000, clock=time.thread_time) * 1e9


@kaji.jit
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


class CaiOnly:
    def __init__(self, ptr):
        self.__cuda_array_interface__ = {"shape": (1024,), "typestr": "<f4", "data": (ptr, False),
                                         "strides": None, "version": 3, "stream": 1}


class CupyMemory:
    ptr = 0x7000_0000


class ndarray:  # noqa: N801 (the name the fast path recognizes, with __module__ below)
    shape, strides, dtype, data = (1024,), (4,), np.dtype(np.float32), CupyMemory()
    _c_contiguous = True


ndarray.__module__ = "cupy"


class Tensor:
    shape, dtype, is_cuda, requires_grad = (1024,), None, True, False

    def stride(self):
        return (1,)

    def data_ptr(self):
        return 0x9000_0000


Tensor.__module__ = "torch"


def install_library_stand_ins():
    util = types.ModuleType("cupy._util")
    util.CUDA_ARRAY_INTERFACE_EXPORT_VERSION = 3
    cuda = types.ModuleType("cupy.cuda")
    null_stream = types.SimpleNamespace(ptr=0)
    cuda.get_current_stream = lambda: null_stream
    torch = types.ModuleType("torch")
    torch.strided = object()
    torch_float32 = type("dtype", (), {"__str__": lambda self: "torch.float32"})()
    Tensor.layout, Tensor.dtype = torch.strided, torch_float32
    sys.modules.update({"cupy._util": util, "cupy.cuda": cuda, "torch": torch})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=100000)
    args = parser.parse_args()
    install_library_stand_ins()

    out, x, y = (kaji.to_device(np.ones(1024, np.float32)) for _ in range(3))
    a = np.float32(2)
    configured = saxpy[1, 1]

    def no_op(out, a, x, y):
        pass

    rows = [
        ("Python call of a 4-argument no-op", lambda: no_op(out, a, x, y)),
        ("saxpy[1, 1](out, a, x, y), configured each call", lambda: saxpy[1, 1](out, a, x, y)),
        ("k(out, a, x, y), k = saxpy[1, 1] once", lambda: configured(out, a, x, y)),
        ("saxpy[1, 1] alone", lambda: saxpy[1, 1]),
        ("kaji.typeof(np.float32(2), 'cuda')", lambda: kaji.typeof(a, "cuda")),
        ("kaji.typeof(__cuda_array_interface__ only)", lambda c=CaiOnly(1): kaji.typeof(c, "cuda")),
        ("kaji.typeof(CuPy stand-in, fast path)", lambda c=ndarray(): kaji.typeof(c, "cuda")),
        ("kaji.typeof(PyTorch stand-in, fast path)", lambda t=Tensor(): kaji.typeof(t, "cuda")),
    ]
    print(f"cpu target, thread CPU time, median of {args.runs} runs x {args.calls} calls "
          "(stand-ins are not CuPy or PyTorch)")
    for name, call in rows:
        print(f"{name:52s} {per_call_ns(call, args.runs, args.calls):8.0f} ns")


if __name__ == "__main__":
    main()

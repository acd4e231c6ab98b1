"""What one benchmark of the suite is: a kernel, its launch shape and arguments, the CUDA C++
kernel's arguments for the same work, and how to check the result."""

from dataclasses import dataclass
from typing import Callable


@dataclass
class Problem:
    grid: tuple
    block: tuple
    args: list  # host numpy arrays and numpy scalars, in the Python kernel's order
    outputs: tuple  # indices into args of the arrays the kernel writes
    cuda_c_args: Callable  # device args (same order) -> the .cu kernel's arguments
    reference: Callable  # host args -> the expected outputs, for the small problems
    rtol: float = 1e-5
    atol: float = 0.0
    mismatch_fraction: float = 0.0  # of the elements, allowed outside rtol/atol
    shared_bytes: int = 0  # dynamic shared memory per block, for both sides
    backends: tuple = ("llvm", "nvrtc")  # the kaji backends that compile the kernel
    numba: bool = True  # whether numba-cuda compiles the same source
    # Hopper's wgmma: nvcc compiles the .cu for sm_90a, as kaji compiles the kernel
    architecture_specific: bool = False

    def arch(self, arch):
        """The architecture both sides compile this kernel for on a GPU of `arch`."""
        return arch + "a" if self.architecture_specific else arch

    @property
    def config(self):
        """The kaji launch configuration: kernel[problem.config](*args)."""
        if self.shared_bytes:
            return self.grid, self.block, 0, self.shared_bytes
        return self.grid, self.block

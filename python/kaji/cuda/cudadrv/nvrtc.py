"""Numba's ``numba.cuda.cudadrv.nvrtc``: ``find_closest_arch``, the compute capability kaji
compiles for on a device of a given one. kaji's code generators (LLVM 19's NVPTX backend and
CUDA 13's NVRTC) meet at 7.5 to 9.0; a newer device runs 9.0's PTX, which its driver compiles
on load."""

# What kaji compiles for, oldest first.
SUPPORTED_CCS = ((7, 5), (8, 0), (8, 6), (8, 7), (8, 9), (9, 0))


def find_closest_arch(mycc):
    """The newest compute capability kaji compiles for that a device of `mycc` ((major,
    minor)) runs; NotImplementedError for a device older than all of them."""
    for cc in reversed(SUPPORTED_CCS):
        if cc <= tuple(mycc):
            return cc
    raise NotImplementedError(f"GPU compute capability {mycc[0]}.{mycc[1]} is not supported "
                              f"(kaji compiles for {SUPPORTED_CCS[0][0]}.{SUPPORTED_CCS[0][1]} "
                              "and newer)")

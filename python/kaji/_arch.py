"""The compute capabilities kaji compiles for, and which one a device gets
(``cudadrv.nvrtc.find_closest_arch``). kaji's code generators (LLVM 19's NVPTX backend and
CUDA 13's NVRTC) meet at 7.5 to 9.0; a newer device runs 9.0's PTX, which its driver compiles
on load."""

# What kaji compiles for, oldest first.
SUPPORTED_CCS = ((7, 5), (8, 0), (8, 6), (8, 7), (8, 9), (9, 0))

# Numba's compute capability for code compiled without a device: the lowest its NVRTC
# supports; CUDA 13's is 7.5.
DEFAULT_CC = SUPPORTED_CCS[0]


def find_closest_arch(mycc):
    """The newest compute capability kaji compiles for that a device of `mycc` ((major,
    minor)) runs; NotImplementedError for a device older than all of them."""
    for cc in reversed(SUPPORTED_CCS):
        if cc <= tuple(mycc):
            return cc
    raise NotImplementedError(f"GPU compute capability {mycc[0]}.{mycc[1]} is not supported "
                              f"(kaji compiles for {SUPPORTED_CCS[0][0]}.{SUPPORTED_CCS[0][1]} "
                              "and newer)")


def current_cc():
    """What kaji compiles for on the current device."""
    from kaji._runtime import get_current_device

    return find_closest_arch(get_current_device().compute_capability)


def current_or_default_cc():
    """current_cc(), or DEFAULT_CC without a usable GPU."""
    from kaji._runtime import is_available

    return current_cc() if is_available() else DEFAULT_CC

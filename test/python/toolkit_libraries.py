"""Whether the CUDA toolkit libraries kaji opens with dlopen are here, for skipping the tests
that need one."""

import kaji


def loadable(version_probe):
    """True when `version_probe` (kaji._core.nvrtc_version, nvjitlink_version) finds its
    library."""
    try:
        version_probe()
        return True
    except RuntimeError:
        return False


NVRTC = loadable(kaji._core.nvrtc_version)
NVJITLINK = loadable(kaji._core.nvjitlink_version)

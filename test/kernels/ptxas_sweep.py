"""Every kernel signature the suite compiles, compiled again to PTX for the GPU architectures
kaji supports with fast math off and on, and assembled for each by ptxas: the CI check that
the GPU code loads everywhere, on a machine with no GPU (conftest.py turns it on under
KAJI_TEST_PTXAS=1).

Each signature is compiled once by each backend, for an (architecture, fast math) pair its
hash picks, one pair for the llvm backend and another for nvrtc: over the suite each pair sees
a tenth of the kernels. A signature that holds a float16 or bfloat16 is compiled by the llvm
backend for every pair: those instructions are the ones that differ by architecture and by
fast math (`.ftz` forms, native bf16 arithmetic from sm_90, bf16 conversions from sm_80), and
such a kernel may come from any test. Past _LLVM_SIGNATURES_PER_TEST signatures of one test
(the differential tests' hundreds of large random kernels), only the nvrtc compile of one in
_NVRTC_SAMPLE of them is checked.
Sweeping every signature over every pair costs about ten times the suite's own compiles (NVRTC
takes about six times as long as the llvm backend per kernel), more than the CI budget has.

ptxas runs in this process, inside the toolkit's nvJitLink (`_core.assemble_ptx`: a PTX input
is assembled by the ptxas it embeds): a ptxas process per PTX costs more than the compile. It assembles at -O0, in
half the time of -O3, as what ptxas rejects it rejects when reading the PTX (the GPU runs of
the suite assemble optimised code). PTX already assembled for an architecture is not
assembled again."""

import hashlib
import itertools

import pytest

# The architectures of CUDA 13's ptxas that LLVM 19's NVPTX backend knows: Turing, Ampere
# (data centre and consumer), Ada, Hopper.
ARCHITECTURES = ("sm_75", "sm_80", "sm_86", "sm_89", "sm_90")
_VARIANTS = tuple(itertools.product(ARCHITECTURES, (False, True)))
# The differential tests compile hundreds of large kernels each; past this many signatures of
# one test, only the nvrtc backend's compile of one in _NVRTC_SAMPLE (by the signature's hash)
# is checked, so that the sweep costs less than the test itself does.
_LLVM_SIGNATURES_PER_TEST = 12
_NVRTC_SAMPLE = 4


def _variants(kernel_name, signature, nth_of_test, every_pair):
    """(backend, arch, fast math) of each compile of `kernel_name` for `signature`, the
    test's `nth_of_test` signature (from 0)."""
    if every_pair:
        return [(backend, arch, fast) for backend in ("llvm", "nvrtc") for arch, fast in _VARIANTS]
    digest = hashlib.sha256(f"{kernel_name}\0{signature}".encode()).digest()
    nvrtc = [("nvrtc", *_VARIANTS[digest[1] % len(_VARIANTS)])]
    if nth_of_test >= _LLVM_SIGNATURES_PER_TEST:
        return nvrtc if digest[2] % _NVRTC_SAMPLE == 0 else []
    if "float16" in signature:
        return [("llvm", arch, fast) for arch, fast in _VARIANTS] + nvrtc
    return [("llvm", *_VARIANTS[digest[0] % len(_VARIANTS)])] + nvrtc


class PtxasSweep:
    def __init__(self, every_pair=False):
        """`every_pair`: every signature by both backends for every (architecture, fast math)
        pair, the whole sweep (KAJI_TEST_PTXAS=all; hours on a 2-core machine)."""
        from kaji import _core

        self._every_pair = every_pair
        try:
            _core.nvjitlink_version()
        except RuntimeError as error:
            raise pytest.UsageError(f"KAJI_TEST_PTXAS needs the CUDA toolkit's nvJitLink: {error}")
        self._assembled = set()  # (arch, digest of the PTX)
        self._signatures = {}  # test id: how many of its signatures were checked

    def check(self, kernel, signature, test_id):
        """Compiles the variants of `kernel` for `signature` and assembles their PTX;
        pytest.fail naming the variant and the test that compiled the kernel when ptxas
        rejects one."""
        from kaji import CompileError, LinkError, _core

        nth = self._signatures.get(test_id, 0)
        self._signatures[test_id] = nth + 1
        for backend, arch, fast_math in _variants(kernel.__name__, signature, nth,
                                                  self._every_pair):
            try:
                ptx = _core.compile(kernel._source, kernel._describe_globals, signature,
                                    stage="ptx", arch=arch, fast_math=fast_math,
                                    backend=backend)
            except CompileError:
                continue  # what an architecture lacks is refused when compiling, as it must be
            key = (arch, hashlib.sha256(ptx.encode()).digest())
            if key in self._assembled:
                continue
            self._assembled.add(key)
            try:
                _core.assemble_ptx(ptx, arch, optimize=False)
            except LinkError as error:
                fast = "fastmath=True" if fast_math else "fastmath=False"
                pytest.fail(f"ptxas rejected the {backend} backend's PTX of kernel "
                            f"'{kernel.__name__}' for {signature} on {arch} with {fast} "
                            f"(compiled by {test_id}):\n{error}", pytrace=False)

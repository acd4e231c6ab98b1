"""Which layer gets a program of the program differential wrong, on a GPU machine:

    python3 test/differential/locate_layer.py SEED/NUMBER [SEED/NUMBER ...]

Each program is shrunk while it still differs on cuda (the llvm backend), then run through
the llvm backend at kaji's opt 3 and 0, through NVRTC and on cpu, and kaji's llvm PTX is
assembled by ptxas at -O0 to -O3 and launched through CuPy (so only ptxas's optimisation
changes). A program right at `ptxas -O0` and wrong above it is code ptxas miscompiles; one
wrong at every ptxas level is wrong PTX. Needs a GPU, CuPy and ptxas."""

import pathlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from differential import kernels  # noqa: E402
from differential.interpreter import Interpreter  # noqa: E402
from differential.program_campaign import TARGETS, ProgramCampaign, ptxas  # noqa: E402
from differential.program_shrinker import shrink  # noqa: E402
from differential.programs import BLOCK, BLOCKS, program_source, result_layout  # noqa: E402

VARIANTS = (("llvm", "cuda", {}), ("llvm at opt 0", "cuda", {"opt": 0}),
            ("nvrtc", "cuda-nvrtc", {}), ("cpu", "cpu", {}))


def _placed(program, outputs, accumulators):
    placement, _ = result_layout(program)
    by_output = dict(zip(kernels.OUTPUTS, outputs))
    return [by_output[o][row] for o, row in placement], accumulators


def _run_kernel(campaign, program, inputs, accumulators, target, options):
    import kaji

    device, backend = TARGETS[target]
    backend_option = {"backend": backend} if backend else {}
    kernel = kaji.jit(kernels.load(program_source(program), "program"), target=device,
                      boundscheck=False, **backend_option, **options)
    outputs, accs = campaign._arguments(program, inputs, accumulators)
    kernel[BLOCKS, BLOCK](*outputs, *accs.values(), *inputs)
    return _placed(program, outputs, accs)


def _llvm_ptx(campaign, program, inputs, accumulators):
    import kaji
    from kaji import _core

    kernel = kaji.jit(kernels.load(program_source(program), "program"), target="cpu",
                      boundscheck=False)
    outputs, accs = campaign._arguments(program, inputs, accumulators)
    signature = kernel.signature_for((*outputs, *accs.values(), *inputs))
    return _core.compile(kernel._source, kernel._describe_globals, signature, stage="ptx",
                         backend="llvm")


def _run_cubin(campaign, program, inputs, accumulators, cubin):
    """The cubin's kernel launched through CuPy with kaji's flattened parameters
    (docs/codegen.md, "Kernel parameter ABI")."""
    import cupy

    outputs, accs = campaign._arguments(program, inputs, accumulators)
    arrays = [*outputs, *accs.values(), *inputs]
    on_device = [cupy.asarray(a) for a in arrays]
    parameters = []
    for a in on_device:
        parameters += [np.uint64(a.data.ptr), *map(np.int64, a.shape), *map(np.int64, a.strides)]
    cupy.RawModule(path=cubin).get_function("program")((BLOCKS,), (BLOCK,), tuple(parameters))
    for host, device in zip(arrays, on_device):
        host[...] = cupy.asnumpy(device)
    return _placed(program, outputs, accs)


def locate(seed, number, assembler):
    campaign = ProgramCampaign(seed, ["cuda"], log=lambda text: None)
    program, inputs, accumulators = campaign.generate(number)
    if not campaign._differs(program, inputs, accumulators, "cuda"):
        return f"== {seed}/{number}: right on cuda"
    program = shrink(program, lambda candidate: campaign._differs(
        candidate, inputs, accumulators, "cuda"))
    expected = Interpreter(program, inputs, accumulators).run()
    lines = [f"== {seed}/{number}"]

    def verdict(label, run):
        try:
            what = campaign._difference(program, expected, run())
            lines.append(f"  {label}: {'right' if what is None else 'WRONG, ' + what}")
        except Exception as error:  # a failure is a finding too
            lines.append(f"  {label}: {type(error).__name__}: {error}")

    for label, target, options in VARIANTS:
        verdict(label, lambda: _run_kernel(campaign, program, inputs, accumulators, target,
                                           options))
    with tempfile.TemporaryDirectory() as work:
        ptx = pathlib.Path(work, "program.ptx")
        ptx.write_text(_llvm_ptx(campaign, program, inputs, accumulators))
        for level in range(4):
            cubin = pathlib.Path(work, f"program-O{level}.cubin")
            subprocess.run([assembler, f"-O{level}", "--gpu-name", "sm_90", str(ptx), "-o",
                            str(cubin)], check=True, capture_output=True)
            verdict(f"llvm PTX, ptxas -O{level}", lambda: _run_cubin(
                campaign, program, inputs, accumulators, str(cubin)))
    return "\n".join(lines + [program_source(program)])


def main():
    assembler = ptxas()
    if assembler is None:
        sys.exit("locate_layer needs ptxas (the CUDA toolkit)")
    for case in sys.argv[1:]:
        seed, number = map(int, case.split("/"))
        print(locate(seed, number, assembler), flush=True)


if __name__ == "__main__":
    main()

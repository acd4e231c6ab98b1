"""A differential run of random programs (program_generator.py): each program runs on every
target, and its results are compared with the interpreter's (interpreter.py) and target with
target; each program's kernel can also be compiled through both GPU backends to PTX and
assembled by ptxas, which needs no GPU."""

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

from . import kernels
from .campaign import _value_source, paths_differ
from .comparison import differing_rows
from .interpreter import Interpreter
from .program_generator import ProgramGenerator
from .program_shrinker import shrink
from .programs import BLOCK, BLOCKS, program_source, result_layout
from .scalars import KINDS, draw_column, int_range

GPU_BACKENDS = ("llvm", "nvrtc")
TARGETS = {"cpu": ("cpu", None), "cuda": ("cuda", "llvm"), "cuda-nvrtc": ("cuda", "nvrtc")}
# Each target's bytecode twin ("cpu-bytecode") compiles the program from its bytecode (exec()'d
# with no source text, kernels.BYTECODE) and is compared with the interpreter and, exactly on
# every thread, with the same target's results from source.
TARGETS.update({kernels.bytecode_twin(t): device for t, device in list(TARGETS.items())})


@dataclass
class ProgramSummary:
    programs: int = 0
    results: int = 0  # result rows and accumulator elements compared, all targets
    tainted: int = 0  # result rows not compared (docs/testing.md)
    assembled: int = 0  # PTX files ptxas assembled
    mismatches: list = field(default_factory=list)
    seconds: float = 0.0


def ptxas():
    found = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    return found if os.path.exists(found) else None


def assemble(ptx, assembler, arch="sm_90"):
    """ptxas's complaint about `ptx`, or None when it assembles."""
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as file:
        file.write(ptx)
        file.flush()
        result = subprocess.run([assembler, "--gpu-name", arch, "-o", os.devnull, file.name],
                                capture_output=True, text=True)
    return None if result.returncode == 0 else result.stderr


def _accumulator(kind, size, rng):
    lo, hi = int_range(kind)
    return rng.integers(lo, hi, size=size, endpoint=True, dtype=np.dtype(kind))


class ProgramCampaign:
    def __init__(self, seed, targets, ptx=False, log=print):
        unknown = [t for t in targets if t not in TARGETS]
        if unknown:
            raise ValueError(f"unknown targets {unknown}: expected some of {', '.join(TARGETS)}")
        self.seed = seed
        self.targets = targets
        self.assembler = ptxas() if ptx else None
        if ptx and self.assembler is None:
            raise RuntimeError("checking PTX needs ptxas (the CUDA toolkit)")
        self.log = log
        self.summary = ProgramSummary()

    def run(self, count, seconds=None, first=0):
        """Programs `first`, `first` + 1, ... of this seed: `count` of them, or fewer where
        `seconds` runs out first. Program n depends on the seed and n only."""
        start = time.monotonic()
        number = first
        while self.summary.programs < count and (
                seconds is None or time.monotonic() - start < seconds):
            self.one(number)
            number += 1
        self.summary.seconds = time.monotonic() - start
        return self.summary

    def generate(self, number):
        """Program `number` of this seed, its input columns and its accumulators. With a
        bytecode twin among the targets every condition holds a variable (ProgramGenerator):
        other programs than without one."""
        rng = np.random.default_rng([self.seed, number])
        variable_conditions = any(kernels.from_bytecode(t) for t in self.targets)
        program = ProgramGenerator(rng, list(KINDS), variable_conditions).program()
        inputs = [draw_column(kind, BLOCK * BLOCKS, rng) for kind in KINDS]
        accumulators = {a.name: _accumulator(a.kind, a.size, rng)
                        for a in program.arrays if a.space == "global"}
        return program, inputs, accumulators

    def one(self, number):
        program, inputs, accumulators = self.generate(number)
        self.summary.programs += 1
        source = program_source(program)
        expected = Interpreter(program, inputs, accumulators).run()
        results = {}
        for target in self.targets:
            try:
                results[target] = self._execute(program, source, inputs, accumulators, target)
            except Exception as error:  # every failure of kaji is a finding
                self._report(f"program {number}: [{target}] {type(error).__name__}: {error}",
                             source)
        for target, got in results.items():
            what = self._difference(program, expected, got)
            if what is not None:
                small = shrink(program, lambda candidate: self._differs(
                    candidate, inputs, accumulators, target))
                self._report(f"program {number}: [{target}] {what}; shrunk:",
                             self._reproducer(small, inputs, accumulators, target))
        self._compare_paths(number, program, results, inputs, accumulators)
        if self.assembler is not None:
            self._assemble(number, program, source, inputs, accumulators)

    def _kernel(self, source, target):
        import kaji

        device, backend = TARGETS[target]
        options = {"backend": backend} if backend else {}
        return kaji.jit(kernels.load(source, "program", kernels.from_bytecode(target)),
                        target=device, boundscheck=False, **options)

    def _arguments(self, program, inputs, accumulators):
        _, rows = result_layout(program)
        threads = BLOCK * BLOCKS
        outputs = [np.zeros((max(rows[o], 1), threads), dtype=kernels.output_dtype(o))
                   for o in kernels.OUTPUTS]
        return outputs, {name: data.copy() for name, data in accumulators.items()}

    def _execute(self, program, source, inputs, accumulators, target):
        kernel = self._kernel(source, target)
        outputs, accs = self._arguments(program, inputs, accumulators)
        kernel[BLOCKS, BLOCK](*outputs, *accs.values(), *inputs)
        placement, _ = result_layout(program)
        by_output = dict(zip(kernels.OUTPUTS, outputs))
        return [by_output[o][row] for o, row in placement], accs

    def _difference(self, program, expected, got):
        """What differs between the interpreter's outcome and a target's, or None."""
        results, accs = got
        placement, _ = result_layout(program)
        kinds = [program.slots[j].kind for j in program.results]
        kinds += [a.kind for a in program.arrays if a.space == "local" for _ in range(a.size)]
        self.summary.tainted += int(expected.tainted.sum())
        for k, (kind, (output, _)) in enumerate(zip(kinds, placement)):
            want = expected.results[k].astype(kernels.output_dtype(output))
            bad = differing_rows(results[k], want, expected.tainted, kind)
            self.summary.results += int((~expected.tainted).sum())
            if bad.size:
                row = int(bad[0])
                return (f"result {k} ({kind}) differs in {bad.size} threads; thread {row}: got "
                        f"{results[k][row]!r}, expected {want[row]!r}")
        for name, data in accs.items():
            if name in expected.tainted_accumulators:
                continue
            want = expected.accumulators[name]
            self.summary.results += want.size
            if not np.array_equal(data, want):
                return f"accumulator {name} differs: got {data.tolist()}, expected {want.tolist()}"
        return None

    def _compare_paths(self, number, program, results, inputs, accumulators):
        """Each bytecode twin's results with its target's from source: the same program, so
        equal on every thread, also those the interpreter leaves open, integers bit for bit
        and floats with their signs of zero (NaN where NaN). A program's conditions always
        hold a variable or a loop counter, so CPython decides none of them."""
        for twin, from_bytecode in results.items():
            target = kernels.device_target(twin)
            if not kernels.from_bytecode(twin) or target not in results:
                continue
            what = self._paths_difference(results[target], from_bytecode)
            if what is not None:
                small = shrink(program, lambda candidate: self._paths_differ(
                    candidate, inputs, accumulators, twin))
                self._report(f"program {number}: [{twin}] from source and from bytecode: "
                             f"{what}; shrunk:",
                             self._reproducer(small, inputs, accumulators, twin))

    @staticmethod
    def _paths_difference(from_source, from_bytecode):
        (source_results, source_accs), (bytecode_results, bytecode_accs) = \
            from_source, from_bytecode
        for k, (a, b) in enumerate(zip(source_results, bytecode_results)):
            bad = paths_differ(a, b)
            if bad.size:
                row = int(bad[0])
                return (f"result {k} differs in {bad.size} threads; thread {row}: "
                        f"{a[row]!r} from source, {b[row]!r} from bytecode")
        for name, data in source_accs.items():
            if not np.array_equal(data, bytecode_accs[name]):
                return (f"accumulator {name} differs: {data.tolist()} from source, "
                        f"{bytecode_accs[name].tolist()} from bytecode")
        return None

    def _paths_differ(self, program, inputs, accumulators, twin):
        source = program_source(program)
        try:
            Interpreter(program, inputs, accumulators).run()  # still a valid program
            both = [self._execute(program, source, inputs, accumulators, target)
                    for target in (kernels.device_target(twin), twin)]
        except Exception:
            return False  # the candidate broke the program (a variable no longer assigned)
        return self._paths_difference(*both) is not None

    def _differs(self, program, inputs, accumulators, target):
        try:
            expected = Interpreter(program, inputs, accumulators).run()
            got = self._execute(program, program_source(program), inputs, accumulators, target)
        except Exception:
            return False  # the candidate broke the program (a variable no longer assigned)
        return self._difference(program, expected, got) is not None

    def _reproducer(self, program, inputs, accumulators, target):
        """A standalone script running `program` on the failing inputs."""
        kernel_target, backend = TARGETS[target]
        lines = [program_source(program).replace(
            "\ndef program(", f"\n@kaji.jit(target={kernel_target!r}"
            f"{f', backend={backend!r}' if backend else ''})\ndef program(")]
        _, rows = result_layout(program)
        for o in kernels.OUTPUTS:
            lines.append(f"{o} = np.zeros(({max(rows[o], 1)}, {BLOCK * BLOCKS}), "
                         f"dtype=np.{np.dtype(kernels.output_dtype(o)).name})")
        for name, data in accumulators.items():
            lines.append(f"{name} = np.array({data.tolist()}, dtype=np.{data.dtype.name})")
        for j, column in enumerate(inputs):
            values = ", ".join(_value_source(v) for v in column)
            lines.append(f"v{j} = np.array([{values}], dtype=np.{column.dtype.name})")
        args = list(kernels.OUTPUTS) + list(accumulators) + [f"v{j}" for j in range(len(inputs))]
        lines.append(f"program[{BLOCKS}, {BLOCK}]({', '.join(args)})")
        lines.append("print(oi, ou, of" + "".join(f", {name}" for name in accumulators) + ")")
        return "\n".join(lines)

    def _assemble(self, number, program, source, inputs, accumulators):
        """The kernel through both GPU backends to PTX, assembled by ptxas."""
        from kaji import _core

        kernel = self._kernel(source, "cpu")
        outputs, accs = self._arguments(program, inputs, accumulators)
        signature = kernel.signature_for((*outputs, *accs.values(), *inputs))
        for backend in GPU_BACKENDS:
            try:
                ptx = _core.compile(kernel._source, kernel._describe_globals, signature,
                                    stage="ptx", backend=backend)
            except Exception as error:
                self._report(f"program {number}: [{backend} PTX] {type(error).__name__}: "
                             f"{error}", source)
                continue
            complaint = assemble(ptx, self.assembler)
            if complaint:
                self._report(f"program {number}: [{backend} PTX] ptxas: {complaint}", source)
            else:
                self.summary.assembled += 1

    def _report(self, what, source):
        self.summary.mismatches.append((what, source))
        self.log(f"MISMATCH {what}\n{source}")


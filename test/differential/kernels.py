"""Kernels that evaluate many items over many rows: one thread per input row, item k of
result kind K written to out_K[k, row]. Sources are compiled from memory (linecache), so the
tester writes no files."""

import itertools
import linecache

import numpy as np

from .expressions import item_lines
from .scalars import is_float

# Every result is stored widened, where a wrong type cannot hide: floats to float64, uint64
# to uint64, everything else (bools and narrower integers) to int64.
OUTPUTS = ("oi", "ou", "of")
PRELUDE = "import math\nimport numpy as np\nimport kaji\n\n"
# A target named with this suffix ("cpu-bytecode") compiles every kernel from its bytecode:
# the function is exec()'d with no source text inspect can find (docs/python.md, "Kernels
# without source text"), and its results are compared exactly with the target's from source.
BYTECODE = "-bytecode"
_names = itertools.count()


def bytecode_twin(target):
    """The target that compiles `target`'s kernels from their bytecode."""
    return target + BYTECODE


def device_target(target):
    """The kaji target ("cpu", "cuda") that `target` runs on."""
    return target.removesuffix(BYTECODE)


def from_bytecode(target):
    return target.endswith(BYTECODE)


def output_of(kind):
    return "of" if is_float(kind) else "ou" if kind == "uint64" else "oi"


def output_dtype(output):
    return {"oi": np.int64, "ou": np.uint64, "of": np.float64}[output]


def column_name(j):
    return f"v{j}[i]"


def kernel_source(name, items, result_kinds, columns):
    """Source of a kernel `name(oi, ou, of, v<j>...)` computing `items` (their results of
    `result_kinds`) from the input columns `columns` (indices)."""
    params = ", ".join(list(OUTPUTS) + [f"v{j}" for j in columns])
    lines = [f"def {name}({params}):", "    i = kaji.grid(1)", f"    if i < v{columns[0]}.size:"]
    slots = {output: 0 for output in OUTPUTS}
    placement = []
    for k, (item, kind) in enumerate(zip(items, result_kinds)):
        output = output_of(kind)
        placement.append((output, slots[output]))
        target = f"{output}[{slots[output]}, i]"
        slots[output] += 1
        lines += ["        " + line for line in item_lines(item, target, f"t{k}", column_name)]
    return PRELUDE + "\n".join(lines) + "\n", placement, slots


def load(source, name, bytecode_only=False):
    """The Python function `name` defined by `source`, with its source findable by inspect,
    or with `bytecode_only` without (kaji then translates its bytecode)."""
    filename = f"<kaji-difftest-{next(_names)}>"
    if not bytecode_only:
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def run(items, result_kinds, inputs, target):
    """Compiles the items into one kernel for `target` and runs it on `inputs` (all columns);
    returns the per-item result rows, in the widened output dtypes."""
    import kaji

    columns = sorted(set().union(*(item.columns() for item in items)) or {0})
    source, placement, slots = kernel_source("difftest", items, result_kinds, columns)
    # Every index is the thread's own row: bounds checks would only triple the compile time.
    kernel = kaji.jit(load(source, "difftest", from_bytecode(target)),
                      target=device_target(target), boundscheck=False)
    rows = len(inputs[0])
    outputs = {o: np.zeros((max(slots[o], 1), rows), dtype=output_dtype(o)) for o in OUTPUTS}
    threads = min(rows, 128)
    kernel[(rows + threads - 1) // threads, threads](
        *[outputs[o] for o in OUTPUTS], *[inputs[j] for j in columns])
    return [outputs[o][slot] for o, slot in placement]


def compile_only(items, result_kinds, column_kinds, target):
    """Compiles the items for `target` with one-row inputs of the columns' kinds."""
    inputs = [np.zeros(1, dtype=kind) for kind in column_kinds]
    run(items, result_kinds, inputs, target)

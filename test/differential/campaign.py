"""A differential run: batches of generated items, each compiled into one kernel per target,
compared row by row with the reference (and target with target), and a small reproducer for
every mismatch."""

import time
from dataclasses import dataclass, field

import numpy as np

from . import kernels
from .expressions import Item, Node, decides_a_condition, item_lines
from .generator import Generator
from .comparison import differing_rows, tolerance_ulps
from .contraction import contracts
from .reference import EXACT_EXPONENTS, Evaluator, run_item
from .scalars import KINDS, draw_column, is_float


@dataclass
class Mismatch:
    what: str
    reproducer: str


@dataclass
class Summary:
    expressions: int = 0
    executions: int = 0
    expected_errors: int = 0
    unchecked_rows: int = 0
    decided_by_cpython: int = 0  # items whose paths are not compared row by row (below)
    mismatches: list = field(default_factory=list)
    seconds: float = 0.0


def approximate_function(item):
    """The math-library function ("exp", "pow", ...) at the root of an item whose result is
    compared within an ulp bound, or None for an item compared exactly."""
    if item.form != "expr" or item.exprs[0].op != "call":
        return None
    root = item.exprs[0]
    short = root.value.split(".")[-1]
    if short in ("exp", "log", "sin", "cos"):
        return short
    exponent = root.children[-1]
    if short in ("pow", "power") and exponent.op == "lit" and isinstance(exponent.value, float) \
            and exponent.value not in EXACT_EXPONENTS:
        return "pow"
    return None


def tolerance(item, kind, target):
    function = approximate_function(item)
    return (tolerance_ulps(kernels.device_target(target), function, kind)
            if function and is_float(kind) else 0)


def expected_rows(value, target):
    """The reference's rows for `target` in the widened output dtype: (results, the rows not
    compared, the other results allowed). A contracting target may fuse a product into an add
    or subtract: at the root that is another right answer, below it the row is not compared."""
    dtype = kernels.output_dtype(kernels.output_of(value.type.kind))
    if not contracts(kernels.device_target(target)):
        return value.data.astype(dtype), value.undefined, ()
    return (value.data.astype(dtype), value.undefined | value.uncertain,
            tuple(alternative.astype(dtype) for alternative in value.fused))


def _value_source(value):
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return repr(value) if np.isfinite(value) else f"float('{value}')"
    return repr(value.item() if hasattr(value, "item") else value)


def _one_thread_kernel(item):
    """The lines of `def repro(out, v<j>...)`, the item alone in a one-thread kernel."""
    columns = sorted(item.columns())
    body = item_lines(item, "out[0]", "t", kernels.column_name)
    lines = [f"def repro(out, {', '.join(f'v{j}' for j in columns)}):", "    i = 0"]
    return lines + ["    " + line for line in body]


def _kernel_definition(kernel_lines, name, target):
    """Script lines defining the kernel `name` of `kernel_lines` for `target`: decorated, or
    for a bytecode twin exec()'d from a string (no source text: kaji compiles the bytecode)."""
    device = kernels.device_target(target)
    if not kernels.from_bytecode(target):
        return [f"@kaji.jit(target={device!r})", *kernel_lines]
    text = "\n".join(kernel_lines)
    return ["namespace = {'math': math, 'np': np, 'kaji': kaji}",
            f"exec({text + chr(10)!r}, namespace)  # no source text: compiled from bytecode",
            f"{name} = kaji.jit(namespace[{name!r}], target={device!r})"]


def _input_lines(item, kinds, inputs, row):
    columns = sorted(item.columns())
    lines = []
    for j in columns:
        value = inputs[j][row] if inputs is not None else 0
        lines.append(f"v{j} = np.array([{_value_source(value)}], dtype=np.{kinds[j]})")
    return lines, ", ".join(f"v{j}" for j in columns)


def reproducer(item, kinds, inputs, row, target, got, expected, error=None):
    """A standalone script: the item alone in a one-thread kernel over the failing row."""
    lines = ["import math", "import numpy as np", "import kaji", ""]
    lines += _kernel_definition(_one_thread_kernel(item), "repro", target)
    input_lines, arguments = _input_lines(item, kinds, inputs, row)
    lines += input_lines
    dtype = kernels.output_dtype(kernels.output_of(expected.dtype.name)) \
        if expected is not None else np.int64
    lines.append(f"out = np.zeros(1, dtype=np.{np.dtype(dtype).name})")
    lines.append(f"repro[1, 1](out, {arguments})")
    if error is not None:
        lines.append(f"# expected: {error}")
    else:
        lines.append(f"print(out[0])  # kaji gave {_value_source(got)}, "
                     f"expected {_value_source(expected)}")
    return "\n".join(lines)


def paths_reproducer(item, kinds, inputs, row, target, from_source, from_bytecode):
    """A standalone script compiling the item's one-thread kernel from its source text and
    from its bytecode (target `target`, a bytecode twin) and printing both results."""
    kernel = _one_thread_kernel(item)
    lines = ["import math", "import numpy as np", "import kaji", ""]
    lines += _kernel_definition(kernel, "repro", kernels.device_target(target))
    lines += _kernel_definition([kernel[0].replace("def repro(", "def repro_bytecode("),
                                 *kernel[1:]], "repro_bytecode", target)
    input_lines, arguments = _input_lines(item, kinds, inputs, row)
    lines += input_lines
    dtype = np.dtype(from_source.dtype).name
    for name in ("repro", "repro_bytecode"):
        lines.append(f"out_{name} = np.zeros(1, dtype=np.{dtype})")
        lines.append(f"{name}[1, 1](out_{name}, {arguments})")
    lines.append(f"print(out_repro[0], out_repro_bytecode[0])  # from source "
                 f"{_value_source(from_source[0])}, from bytecode "
                 f"{_value_source(from_bytecode[0])}: must be the same")
    return "\n".join(lines)


class Batches:
    """A run in batches of items, each batch over fresh inputs (`_batch(size)`), until
    `count` items are done or `seconds` are spent; `summary` counts `expressions`."""

    def __init__(self, seed, targets, rows, batch, log, summary):
        self.rng = np.random.default_rng(seed)
        self.targets = targets
        self.rows = rows
        self.batch = batch
        self.log = log
        self.summary = summary

    def run(self, count, seconds=None):
        start = time.monotonic()
        while self.summary.expressions < count and (
                seconds is None or time.monotonic() - start < seconds):
            self._batch(min(self.batch, count - self.summary.expressions))
        self.summary.seconds = time.monotonic() - start
        return self.summary


class Campaign(Batches):
    """`kinds`: the input columns' kinds, by default two of every kind."""

    def __init__(self, seed, targets, rows=128, batch=24, log=print, kinds=None):
        super().__init__(seed, targets, rows, batch, log, Summary())
        self.kinds = list(kinds) if kinds else [kind for kind in KINDS for _ in range(2)]
        self.max_reported = 25

    def run(self, count, max_reported=25, seconds=None):
        """Runs `count` expressions, or fewer where `seconds` runs out first."""
        self.max_reported = max_reported
        return super().run(count, seconds)

    def _batch(self, size):
        inputs = [draw_column(kind, self.rows, self.rng) for kind in self.kinds]
        reference = Evaluator(inputs)
        generator = Generator(self.rng, self.kinds)
        checked, rejected = [], []
        for _ in range(size):
            item, expects_error = generator.item()
            (rejected if expects_error else checked).append(item)
        self.summary.expressions += size
        for item in rejected:
            self._expect_compile_error(item)
        expected = [run_item(reference, item) for item in checked]
        kinds = [value.type.kind for value in expected]
        results = {target: self._results(checked, kinds, inputs, target)
                   for target in self.targets}
        for k, item in enumerate(checked):
            self._compare(item, expected[k], {t: r[k] for t, r in results.items()}, inputs,
                          self.max_reported)

    def _results(self, items, kinds, inputs, target):
        """Each item's rows from `target`, or the CompileError text of the items that kaji
        rejects (found by compiling them one at a time)."""
        import kaji

        failures = (kaji.CompileError, RuntimeError)
        try:
            return kernels.run(items, kinds, inputs, target)
        except failures:
            results = []
            for item, kind in zip(items, kinds):
                try:
                    results += kernels.run([item], [kind], inputs, target)
                except failures as error:
                    results.append(f"{type(error).__name__}: {error}")
            return results

    def _expect_compile_error(self, item):
        import kaji

        for target in self.targets:
            if kernels.from_bytecode(target) and cpython_decides_a_condition(item):
                continue  # CPython may have dropped the literal's branch
            try:
                kernels.compile_only([item], ["int64"], self.kinds, target)
            except kaji.CompileError:
                self.summary.expected_errors += 1
                continue
            self._report(f"[{target}] compiled, expected a CompileError (integer literal out of "
                         "range in arithmetic)",
                         reproducer(item, self.kinds, None, 0, target, None, None,
                                    error="kaji.CompileError"))

    def _compare(self, item, expected, results, inputs, max_reported):
        for target, got in results.items():
            if kernels.from_bytecode(target) and cpython_decides_a_condition(item):
                continue  # the reference follows the source rule; compared with it below
            want, unchecked, alternatives = expected_rows(expected, target)
            self.summary.unchecked_rows += int(unchecked.sum())
            if isinstance(got, str):
                self._report(f"[{target}] kaji failed: {got}",
                             reproducer(item, self.kinds, inputs, 0, target, None, want[:1],
                                        error="no error"))
                continue
            self.summary.executions += int((~unchecked).sum())
            kind = expected.type.kind
            bad = differing_rows(got, want, unchecked, kind, tolerance(item, kind, target),
                                 alternatives)
            if bad.size and len(self.summary.mismatches) < max_reported:
                row = int(bad[0])
                small = self._shrink(item, lambda candidate: self._still_fails(
                    candidate, inputs, row, target))
                got_row, want_row, _ = self._single(small, inputs, row, target)
                self._report(f"[{target}] {bad.size} of {self.rows} rows of an item of type "
                             f"{expected.type.kind} differ; shrunk, the first:",
                             reproducer(small, self.kinds, inputs, row, target, got_row,
                                        want_row))
            elif bad.size:
                self.summary.mismatches.append(Mismatch(f"[{target}] (not shrunk)", ""))
        self._compare_paths(item, results, inputs)
        from_source = {t: r for t, r in results.items() if not kernels.from_bytecode(t)}
        if len(from_source) == 2:
            (first, a), (second, b) = from_source.items()
            if isinstance(a, str) or isinstance(b, str):
                return
            kind = expected.type.kind
            ulps = tolerance(item, kind, first) + tolerance(item, kind, second)
            # Only where neither target may fuse differently (both are checked against the
            # reference above).
            unchecked = expected.undefined | expected.contraction_changes()
            differing = differing_rows(a, b, unchecked, kind, ulps)
            if differing.size:
                row = int(differing[0])
                self._report(f"{first} and {second} differ (row {row}: {_value_source(a[row])} "
                             f"and {_value_source(b[row])})",
                             reproducer(item, self.kinds, inputs, row, second, b[row],
                                        a[row:row + 1]))

    def _compare_paths(self, item, results, inputs):
        """Each bytecode twin's rows with its target's from source text: exactly, on every
        row (also those the reference leaves open: both compile the same program)."""
        for twin, from_bytecode in results.items():
            target = kernels.device_target(twin)
            if not kernels.from_bytecode(twin) or target not in results:
                continue
            from_source = results[target]
            if cpython_decides_a_condition(item):
                # Types may differ; only the translator's own refusal is a mismatch.
                self.summary.decided_by_cpython += 1
                if isinstance(from_bytecode, str) and "from bytecode" in from_bytecode \
                        and not isinstance(from_source, str):
                    self._report(f"[{twin}] compiled from source, not from bytecode: "
                                 f"{from_bytecode}", "")
                continue
            if isinstance(from_source, str) or isinstance(from_bytecode, str):
                if isinstance(from_source, str) != isinstance(from_bytecode, str):
                    self._report(f"[{twin}] one path failed to compile: from source "
                                 f"{_outcome(from_source)}; from bytecode "
                                 f"{_outcome(from_bytecode)}", "")
                continue
            differing = paths_differ(from_source, from_bytecode)
            if differing.size:
                row = int(differing[0])
                small = self._shrink(item, lambda candidate: self._paths_differ_alone(
                    candidate, inputs, row, twin) is not None)
                one = self._paths_differ_alone(small, inputs, row, twin) or (
                    from_source[row:row + 1], from_bytecode[row:row + 1])
                self._report(f"[{twin}] from source and from bytecode, {differing.size} of "
                             f"{self.rows} rows differ (row {row}: "
                             f"{_value_source(from_source[row])} and "
                             f"{_value_source(from_bytecode[row])}); shrunk:",
                             paths_reproducer(small, self.kinds, inputs, row, twin, *one))

    def _paths_differ_alone(self, item, inputs, row, twin):
        """(the row from source, from bytecode) of `item` alone where they differ, or None."""
        one = [column[row:row + 1] for column in inputs]
        try:
            kind = run_item(Evaluator(one), item).type.kind
            from_source = kernels.run([item], [kind], one, kernels.device_target(twin))[0]
            from_bytecode = kernels.run([item], [kind], one, twin)[0]
        except Exception:
            return None  # the candidate left the generator's rules, or does not compile
        return (from_source, from_bytecode) if paths_differ(from_source, from_bytecode).size \
            else None

    def _single(self, item, inputs, row, target):
        """(kaji's row, the reference's row, whether they disagree) for `item` alone."""
        one = [column[row:row + 1] for column in inputs]
        value = run_item(Evaluator(one), item)
        kind = value.type.kind
        want, unchecked, alternatives = expected_rows(value, target)
        got = kernels.run([item], [kind], one, target)[0]
        differ = differing_rows(got, want, unchecked, kind, tolerance(item, kind, target),
                                alternatives)
        return got, want, bool(differ.size)

    def _still_fails(self, item, inputs, row, target):
        import kaji

        try:
            return self._single(item, inputs, row, target)[2]
        except kaji.CompileError:
            return False
        except Exception:
            return False  # the candidate left the generator's rules (e.g. literal-only)

    @staticmethod
    def _shrink(item, still_fails, attempts=40):
        """Greedily replaces subtrees by one of their children while `still_fails`."""
        if item.form != "expr":
            return item
        current = item.exprs[0]
        progress = True
        while progress and attempts > 0:
            progress = False
            for candidate in _smaller(current):
                attempts -= 1
                if still_fails(Item("expr", (candidate,))):
                    current, progress = candidate, True
                    break
                if attempts <= 0:
                    break
        return Item("expr", (current,))

    def _report(self, what, text):
        self.summary.mismatches.append(Mismatch(what, text))
        self.log(f"MISMATCH {what}\n{text}\n")


def paths_differ(from_source, from_bytecode):
    """Rows where one program's results from its source text and from its bytecode differ:
    every row counts (integers bit for bit, floats with their signs of zero, NaN where NaN)."""
    return differing_rows(from_source, from_bytecode, np.zeros(len(from_source), dtype=bool))


def cpython_decides_a_condition(item):
    """Whether a condition in `item` (of a ternary, a statement `if`, or any `and`/`or`
    operand: the last one too is a condition where the `and`/`or` is one) holds no variable.
    CPython's compiler folds such a condition and drops the branch it never takes, which then no longer counts in the type of the expression
    compiled from bytecode (docs/python.md, "What CPython already decided"), while from source
    it does (docs/sema.md): the two paths may give different types there."""
    statement_conditions = [item.exprs[1]] if item.form == "ifelse" else []
    return any(not condition.columns() for condition in statement_conditions) or \
        any(decides_a_condition(expr) for expr in item.exprs)


def _outcome(result):
    return result if isinstance(result, str) else "compiled"


def _smaller(node):
    """Trees with one subtree replaced by one of its children, outermost first."""
    for child in node.children:
        if child.op != "lit":
            yield child
    for i, child in enumerate(node.children):
        for smaller in _smaller(child):
            yield Node(node.op, node.children[:i] + (smaller,) + node.children[i + 1:],
                       node.value)



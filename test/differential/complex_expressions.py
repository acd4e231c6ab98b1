"""The differential test of complex arithmetic (docs/language.md, "Complex numbers"): random
expressions over complex64 and complex128 columns, mixed with float16, float32, float64, int16,
int64 and bool columns and Python literals (`2j`, `1.5`, `-3`), with `+ - * /`, unary `-`,
`== !=`, `abs`, `.real`, `.imag`, `.conjugate()`, `complex(x, y)` and `np.complex64/128(z)`,
compared with numpy's scalar arithmetic of the same types, row by row: the reference computes
every operation on numpy scalars (or a Python literal beside one), so its promotion is NumPy
2's with NEP 50 weak literals, which kaji documents (docs/sema.md, "Complex promotion"), and
its `*` and `/` are numpy's formulas, which kaji's expansions follow. Not generated: `**`,
cmath and numpy's ufuncs of complex arguments (their special values differ from numpy's by
design, docs/numba-compat.md).

How results are compared (`differing`):
- a tree of `+ - *`, unary `-`, parts, conjugates, constructors and conversions is exact on
  the cpu target: equal parts with equal signs of zero, NaN where NaN. On a target that may
  contract a product and an add into an fma (contraction.py; a complex product's parts are
  such sums) each part may lie within the forward error bound `n eps |.|` of both values
  (n the tree's operations, eps its narrowest kind's, |.| the tree evaluated on absolute
  values), and rows whose bound is not finite are not compared;
- `a / b` and `abs(a)` only at the root, over such trees: within 8 eps |a / b| (normwise:
  a part of a quotient may cancel) or 2 ulps of `abs`, plus what the operands' bounds
  allow; where the expected quotient has an infinite or NaN part, or `b` is 0, the same
  special parts (kaji's division is numpy's Smith algorithm, zero divisor included);
- `==`, `!=` only at the root, exact; on a contracting target not where an operand's bound
  is nonzero."""

import math
from dataclasses import dataclass, field

import numpy as np

from . import kernels
from .campaign import Batches, _value_source
from .contraction import contracts
from .expressions import Node, source
from .scalars import draw_column

COLUMN_KINDS = ("complex64", "complex64", "complex128", "complex128", "float16", "float32",
                "float64", "int16", "int64", "bool")
PART_KIND = {"complex64": "float32", "complex128": "float64"}
LITERALS = (2, -3, 0, 1.5, -0.5, 0.0, 1e30, 1j, 2j, 0.5j, complex(1.5, 2.0), -1j)
OUTPUTS = ("oi", "of", "oc")
DIVISION_EPS = 8
ABS_ULPS = 2


class Rejected(Exception):
    """numpy refuses the expression (`bool - bool`), or it is all literals; draw another."""


@dataclass
class Value:
    """`data`: a numpy scalar per row (a list), or one Python literal. `magnitude`,
    `operations` and `eps` give the bound on how far a contracting target's value may lie
    (`_bound`)."""
    data: object
    weak: bool
    magnitude: np.ndarray = None  # the tree on absolute values, complex for complex values
    operations: int = 0
    eps: float = 0.0

    @property
    def kind(self):
        return type(self.data[0]).__name__ if not self.weak else type(self.data).__name__


def literal_source(value):
    if isinstance(value, complex):
        if value.real == 0 and math.copysign(1.0, value.real) < 0:
            return f"(-{-value.imag!r}j)"
        return f"({value.real!r}+{value.imag!r}j)" if value.real else f"{value.imag!r}j"
    return f"({value!r})" if value < 0 else repr(value)


def spell(node, column_name=kernels.column_name):
    def other(n):
        if n.op == "lit":
            return literal_source(n.value)
        if n.op == "attr":
            return f"{spell(n.children[0], column_name)}.{n.value}"
        return None

    return source(node, column_name, other)


def _is_complex(kind):
    return kind.startswith("complex")


def _part_kind(kind):
    """The float kind a result of `kind` is rounded to (float64 for integers)."""
    return PART_KIND.get(kind, kind if np.dtype(kind).kind == "f" else "float64")


def _eps(kind):
    """The rounding error of an operation in `kind`; 0 for integers and bools."""
    return float(np.finfo(PART_KIND.get(kind, kind)).eps) if np.dtype(kind).kind in "fc" \
        else 0.0


class Reference:
    """Evaluates trees over the input columns on numpy scalars, row by row."""

    def __init__(self, columns):
        self.columns = columns
        self.rows = len(columns[0])

    def evaluate(self, node):
        with np.errstate(all="ignore"):
            try:
                return getattr(self, "_" + node.op)(node)
            except TypeError as error:  # numpy's own refusal, e.g. -bool
                raise Rejected() from error

    def _rows(self, value):
        return [value.data] * self.rows if value.weak else value.data

    def _magnitude(self, value):
        if value.weak:
            v = complex(value.data)
            return np.full(self.rows, complex(abs(v.real), abs(v.imag)))
        return value.magnitude

    def _combine(self, values, data, magnitude, extra=1):
        strong = [v for v in values if not v.weak]
        eps = max([v.eps for v in strong] + [_eps(type(data[0]).__name__)])
        return Value(data, False, magnitude, sum(v.operations for v in strong) + extra, eps)

    def _var(self, node):
        column = self.columns[node.value]
        data = list(column)
        magnitude = np.array([complex(abs(complex(x).real), abs(complex(x).imag))
                              for x in data])
        return Value(data, False, magnitude, 0, _eps(column.dtype.name))

    def _lit(self, node):
        return Value(node.value, True)

    def _bin(self, node):
        a, b = (self.evaluate(child) for child in node.children)
        if a.weak and b.weak:
            raise Rejected()
        x, y = self._rows(a), self._rows(b)
        if a.kind == b.kind == "bool":
            # kaji's rule (docs/sema.md): bool arithmetic is int64's, as Python's (numpy's
            # np.True_ + np.True_ is True).
            x, y = [np.int64(v) for v in x], [np.int64(v) for v in y]
        kind = type(_numpy_operation(node.value, x[0], y[0])).__name__
        if _is_complex(kind):
            to = np.dtype(kind).type
            data = [_complex_operation(node.value, to(p), to(q)) for p, q in zip(x, y)]
        else:
            data = [_numpy_operation(node.value, p, q) for p, q in zip(x, y)]
        ma, mb = self._magnitude(a), self._magnitude(b)
        if node.value in ("+", "-"):
            magnitude = ma + mb
        elif node.value == "*":
            magnitude = (ma.real * mb.real + ma.imag * mb.imag) + \
                1j * (ma.real * mb.imag + ma.imag * mb.real)
        else:
            magnitude = None  # only at the root: compared by its own rule
        return self._combine((a, b), data, magnitude)

    def _cmp(self, node):
        a, b = (self.evaluate(child) for child in node.children)
        if a.weak and b.weak:
            raise Rejected()
        op = node.value[0]
        data = [np.bool_(x == y if op == "==" else x != y)
                for x, y in zip(self._rows(a), self._rows(b))]
        return Value(data, False)  # its operands' bounds decide the rows compared

    def _unary(self, node):
        a = self.evaluate(node.children[0])
        if a.weak:
            raise Rejected()
        data = [-np.int64(x) if a.kind == "bool" else -x for x in a.data]
        return self._combine((a,), data, a.magnitude, extra=0)

    def _attr(self, node):
        a = self.evaluate(node.children[0])
        if a.weak:
            raise Rejected()
        m = a.magnitude
        if node.value == "conjugate()":
            return self._combine((a,), [x.conjugate() for x in a.data], m, extra=0)
        part = np.abs(m.real if node.value == "real" else m.imag).astype(np.float64)
        return self._combine((a,), [getattr(x, node.value) for x in a.data], part + 0j,
                             extra=0)

    def _call(self, node):
        args = [self.evaluate(child) for child in node.children]
        if all(arg.weak for arg in args):
            raise Rejected()
        name = node.value
        if name == "abs":
            return self._combine(args, [abs(x) for x in args[0].data], None)
        if name == "complex":
            # Strong complex128 (docs/numba-compat.md) of real parts: CPython's (x, y).
            re, im = (self._rows(arg) for arg in args)
            data = [np.complex128(complex(float(x), float(y))) for x, y in zip(re, im)]
            mr, mi = (self._magnitude(arg).real for arg in args)
            return self._combine(args, data, mr + 1j * mi)
        kind = name.removeprefix("np.")
        data = [np.dtype(kind).type(x) for x in args[0].data]
        return self._combine(args, data, args[0].magnitude)


class ComplexGenerator:
    def __init__(self, rng, reference):
        self.rng = rng
        self.reference = reference

    def _pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def item(self):
        """A root node whose value the reference computes, of strong type, complex inside."""
        while True:
            try:
                node = self._root()
                value = self.reference.evaluate(node)
            except Rejected:
                continue
            if not value.weak and _holds_complex(node, self.reference):
                return node, value

    def _root(self):
        form = self._pick(("exact", "exact", "exact", "divide", "divide", "abs", "compare"))
        depth = int(self.rng.integers(1, 4))
        if form == "exact":
            return self.tree(depth)
        if form == "divide":
            return Node("bin", (self.tree(depth - 1), self.tree(depth - 1)), "/")
        if form == "abs":
            return Node("call", (self.tree(depth),), "abs")
        return Node("cmp", (self.tree(depth - 1), self.tree(depth - 1)),
                    (self._pick(("==", "!=")),))

    def tree(self, depth):
        if depth <= 0 or self.rng.random() < 0.2:
            if self.rng.random() < 0.25:
                return Node("lit", value=self._pick(LITERALS))
            return Node("var", value=int(self.rng.integers(len(self.reference.columns))))
        choice = self._pick(("bin", "bin", "bin", "bin", "neg", "conjugate()", "real", "imag",
                             "complex", "cast"))
        if choice == "bin":
            return Node("bin", (self.tree(depth - 1), self.tree(depth - 1)),
                        self._pick(("+", "-", "*")))
        if choice == "neg":
            return Node("unary", (self.tree(depth - 1),), "-")
        if choice in ("conjugate()", "real", "imag"):
            return Node("attr", (self.tree(depth - 1),), choice)
        if choice == "complex":
            return Node("call", (self._real(depth - 1), self._real(depth - 1)), "complex")
        return Node("call", (self.tree(depth - 1),), self._pick(("np.complex64",
                                                                "np.complex128")))

    def _real(self, depth):
        """A tree of real type (a complex argument of complex(x, y) is not generated)."""
        for _ in range(20):
            node = self.tree(depth)
            try:
                if not _is_complex(self.reference.evaluate(node).kind):
                    return node
            except Rejected:
                continue
        raise Rejected()


def _numpy_operation(op, x, y):
    return {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y,
            "/": lambda: x / y}[op]()


def _complex_operation(op, x, y):
    """`x op y` of two complex numpy scalars of one type, by numpy's scalar formulas on the
    parts (scalarmath.c.src), each operation rounded. numpy's ufunc loops may contract the
    product's parts into fmas (its AVX2/AVX-512 builds; scalars of two types go through them:
    np.complex64(0.5-0.5j) * np.float64(-5e-324) has real part -0.0, the formula's 0.0), so
    numpy's own result is not the reference there; kaji documents the formula."""
    ar, ai, br, bi = x.real, x.imag, y.real, y.imag
    if op == "+":
        return _make(x, ar + br, ai + bi)
    if op == "-":
        return _make(x, ar - br, ai - bi)
    if op == "*":
        return _make(x, ar * br - ai * bi, ar * bi + ai * br)
    if abs(br) >= abs(bi):
        if br == 0 and bi == 0:
            return _make(x, ar / abs(br), ai / abs(br))
        ratio = bi / br
        scale = 1.0 / (br + bi * ratio)
        return _make(x, (ar + ai * ratio) * scale, (ai - ar * ratio) * scale)
    ratio = br / bi
    scale = 1.0 / (bi + br * ratio)
    return _make(x, (ar * ratio + ai) * scale, (ai * ratio - ar) * scale)


def _make(like, real, imag):
    """A complex scalar of `like`'s type from parts of its part type (Python's complex()
    would add 0j's parts, keeping them as they are)."""
    value = np.zeros(1, dtype=type(like))
    value.real, value.imag = real, imag
    return value[0]


def _holds_complex(node, reference):
    """Whether a value in `node` is complex: the item tests complex arithmetic."""
    try:
        if _is_complex(reference.evaluate(node).kind):
            return True
    except Rejected:
        return False
    return any(_holds_complex(child, reference) for child in node.children)


def output_of(kind):
    return "oc" if _is_complex(kind) else "of" if kind.startswith("float") else "oi"


OUTPUT_DTYPES = {"oi": np.int64, "of": np.float64, "oc": np.complex128}


def kernel_source(nodes, kinds, columns):
    params = ", ".join(list(OUTPUTS) + [f"v{j}" for j in columns])
    lines = [f"def complextest({params}):", "    i = kaji.grid(1)",
             f"    if i < v{columns[0]}.size:"]
    slots = {o: 0 for o in OUTPUTS}
    placement = []
    for node, kind in zip(nodes, kinds):
        output = output_of(kind)
        placement.append((output, slots[output]))
        lines.append(f"        {output}[{slots[output]}, i] = {spell(node)}")
        slots[output] += 1
    return kernels.PRELUDE + "\n".join(lines) + "\n", placement, slots


def run(nodes, kinds, inputs, target):
    """Each node's rows from `target`, all nodes in one kernel."""
    import kaji

    columns = sorted(set().union(*(node.columns() for node in nodes)) or {0})
    text, placement, slots = kernel_source(nodes, kinds, columns)
    kernel = kaji.jit(kernels.load(text, "complextest", kernels.from_bytecode(target)),
                      target=kernels.device_target(target), boundscheck=False)
    rows = len(inputs[0])
    outputs = {o: np.zeros((max(slots[o], 1), rows), dtype=OUTPUT_DTYPES[o]) for o in OUTPUTS}
    kernel[1, rows](*outputs.values(), *[inputs[j] for j in columns])
    return [outputs[o][slot] for o, slot in placement]


def _same(got, want):
    """Exact, per part for complex rows: equal with equal signs of zero, or both NaN."""
    def part(x, y):
        return (np.isnan(x) & np.isnan(y)) | ((x == y) & (np.signbit(x) == np.signbit(y)))

    if np.iscomplexobj(want):
        return part(got.real, want.real) & part(got.imag, want.imag)
    if want.dtype.kind == "f":
        return part(got, want)
    return got == want


def _bound(value):
    """Per row, the complex bound of a contracting target's error in `value` (a tree)."""
    magnitude = np.asarray(value.magnitude, dtype=np.complex128)
    scale = value.operations * value.eps
    return magnitude.real * scale + 1j * magnitude.imag * scale


def differing(node, value, operands, got, target):
    """Indices of the rows where `got` and the reference disagree (module docstring), and
    the number of rows compared. `operands` are the root's operands' Values."""
    with np.errstate(all="ignore"):
        return _differing(node, value, operands, got, contracts(kernels.device_target(target)))


def _differing(node, value, operands, got, contracting):
    want = np.array(value.data).astype(OUTPUT_DTYPES[output_of(value.kind)])
    compared = np.ones(len(want), dtype=bool)
    exact = _same(got, want)
    if node.op == "cmp" or (node.op == "bin" and node.value == "/") or \
            (node.op == "call" and node.value == "abs"):
        bounds = [_bound(v) if contracting and not v.weak else np.zeros(len(want), complex)
                  for v in operands]
        if node.op == "cmp":
            agree = exact
            for bound in bounds:
                compared &= (bound == 0)
        elif node.value == "abs":
            width = ABS_ULPS * np.spacing(np.abs(want).astype(_part_kind(value.kind))).astype(
                np.float64)
            agree = exact | (np.abs(got - want) <= width + np.abs(bounds[0]))
        else:
            agree = _quotient_agrees(want, got, exact, value, operands, bounds)
        for bound in bounds:
            compared &= np.isfinite(bound)
        return np.flatnonzero(compared & ~agree), int(compared.sum())
    if contracting and value.operations:
        bound = _bound(value)
        compared = np.isfinite(bound)
        close = (np.abs(got.real - want.real) <= 2 * bound.real) & \
            (np.abs(np.imag(got) - np.imag(want)) <= 2 * bound.imag)
        return np.flatnonzero(compared & ~(exact | close)), int(compared.sum())
    return np.flatnonzero(~exact), len(want)


def _quotient_agrees(want, got, exact, value, operands, bounds):
    kind = value.kind
    eps = float(np.finfo(_part_kind(kind)).eps)
    divisor = np.array([complex(x) for x in (
        [operands[1].data] * len(want) if operands[1].weak else operands[1].data)])
    special = ~np.isfinite(want.real) | ~np.isfinite(want.imag) | (divisor == 0)
    size = np.abs(want)
    error = np.abs(got - want)
    # The operands' own errors, carried through the quotient (zero on an exact target).
    a_error, b_error = np.abs(bounds[0]), np.abs(bounds[1])
    slack = 2 * (a_error + size * b_error) / np.abs(divisor)
    tiny = float(np.finfo(_part_kind(kind)).smallest_subnormal)
    close = error <= DIVISION_EPS * eps * size + slack + DIVISION_EPS * tiny
    return np.where(special, exact, exact | close)


@dataclass
class Summary:
    expressions: int = 0
    compared: int = 0
    mismatches: list = field(default_factory=list)
    seconds: float = 0.0


def draw_complex_column(kind, rows, rng):
    """Every pair of the part kind's edge values somewhere, at random rows: parts drawn from
    two independently shuffled columns of it."""
    part = PART_KIND[kind]
    real, imag = draw_column(part, rows, rng), draw_column(part, rows, rng)
    column = np.empty(rows, dtype=kind)
    column.real, column.imag = real, imag
    return column


def draw_columns(rows, rng):
    return [draw_complex_column(kind, rows, rng) if _is_complex(kind) else
            draw_column(kind, rows, rng) for kind in COLUMN_KINDS]


class ComplexCampaign(Batches):
    """Batches of items, each batch one kernel per target over fresh input columns; every
    target's rows are compared with the reference, and a bytecode twin's must equal its
    target's exactly."""

    def __init__(self, seed, targets, rows=64, batch=24, log=print):
        super().__init__(seed, targets, rows, batch, log, Summary())

    def _batch(self, size):
        inputs = draw_columns(self.rows, self.rng)
        reference = Reference(inputs)
        generator = ComplexGenerator(self.rng, reference)
        items = [generator.item() for _ in range(size)]
        self.summary.expressions += size
        nodes = [node for node, _ in items]
        kinds = [value.kind for _, value in items]
        results = {}
        for target in self.targets:
            try:
                results[target] = run(nodes, kinds, inputs, target)
            except Exception as error:  # every failure of kaji is a finding
                results[target] = self._one_by_one(nodes, kinds, inputs, target, error)
        for k, (node, value) in enumerate(items):
            operands = [reference.evaluate(child) for child in node.children]
            for target, rows in results.items():
                if isinstance(rows[k], str):
                    self._report(f"[{target}] {rows[k]}", node, inputs, 0)
                    continue
                bad, compared = differing(node, value, operands, rows[k], target)
                self.summary.compared += compared
                if bad.size:
                    row = int(bad[0])
                    self._report(f"[{target}] {bad.size} of {self.rows} rows differ; row {row}: "
                                 f"got {rows[k][row]!r}, expected {value.data[row]!r} "
                                 f"({value.kind})", node, inputs, row)
                twin = kernels.bytecode_twin(target)
                if twin in results and not isinstance(results[twin][k], str):
                    differ = np.flatnonzero(~_same(results[twin][k], rows[k]))
                    if differ.size:
                        row = int(differ[0])
                        self._report(f"[{twin}] from source {rows[k][row]!r}, from bytecode "
                                     f"{results[twin][k][row]!r}", node, inputs, row)

    def _one_by_one(self, nodes, kinds, inputs, target, batch_error):
        rows = []
        for node, kind in zip(nodes, kinds):
            try:
                rows += run([node], [kind], inputs, target)
            except Exception as error:
                rows.append(f"{type(error).__name__}: {error}")
        if not any(isinstance(r, str) for r in rows):
            rows = [f"the batch failed, each item alone compiles: {batch_error}"] * len(nodes)
        return rows

    def _report(self, what, node, inputs, row):
        """The item alone as a standalone script over the failing row."""
        columns = sorted(node.columns())
        lines = ["import math", "import numpy as np", "import kaji", "",
                 "@kaji.jit(target='cpu')",
                 f"def repro(out, {', '.join(f'v{j}' for j in columns)}):",
                 f"    out[0] = {spell(node, lambda j: f'v{j}[0]')}"]
        for j in columns:
            lines.append(f"v{j} = np.array([{_scalar_source(inputs[j][row])}], "
                         f"dtype=np.{COLUMN_KINDS[j]})")
        lines += ["out = np.zeros(1, dtype=np.complex128)",
                  f"repro[1, 1](out, {', '.join(f'v{j}' for j in columns)})", "print(out[0])"]
        text = "\n".join(lines)
        self.summary.mismatches.append((what, text))
        self.log(f"MISMATCH {what}\n{text}\n")


def _scalar_source(value):
    if np.iscomplexobj(value):
        return f"complex({_value_source(value.real)}, {_value_source(value.imag)})"
    return _value_source(value)

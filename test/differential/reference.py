"""The reference: evaluates expression trees over all input rows at once with numpy, by the
rules docs/testing.md lists. A value is its type, its data (a Python scalar for a weak
literal, else an array with one element per row) and the rows where kaji documents no result
(`undefined`), which are not compared. For the targets that contract a product and an add
into an fma (contraction.py) it also carries the other results that allows."""

import math
from dataclasses import dataclass, field

import numpy as np

from . import contraction
from .expressions import LOOP_TRIPS
from .scalars import IllTyped, LiteralOutOfRange, ScalarType, int_range, is_float, is_int, promote

ARITHMETIC = ("+", "-", "*", "/", "//", "%", "**")
BITWISE = ("&", "|", "^")
SHIFTS = ("<<", ">>")
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
CASTS = {f"np.{k}": k for k in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                  "uint64", "float16", "float32", "float64")}
CASTS.update({"float": "float64", "int": "int64"})

EXACT_EXPONENTS = (0, 1, 2, -1)
_NUMPY_NAMES = {"pow": "power"}


def libm(function, *arrays):
    """`function` (a name of Python's math module) per element, in float64 with Python's math
    (glibc, within 1 ulp); where it raises (domain, pole, overflow) numpy's IEEE value. The
    result has the first array's dtype, rounded once from float64."""
    scalar, vector = getattr(math, function), getattr(np, _NUMPY_NAMES.get(function, function))
    wide = [a.astype(np.float64) for a in arrays]
    values = []
    for args in zip(*wide):
        try:
            values.append(scalar(*args))
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                values.append(float(vector(*args)))
    with np.errstate(over="ignore"):
        return np.array(values, dtype=np.float64).astype(arrays[0].dtype)


def float_power(x, exponent):
    """pow: for the exponents 0, 1, 2 and -1 kaji computes 1, x, x * x and 1 / x, the correctly
    rounded results (docs/sema.md; computed in float64 and rounded once, which for a product or
    quotient of float32 or float16 values is the correctly rounded one too); any other exponent
    is the math library's pow, compared within an ulp bound (comparison.py)."""
    wide = x.astype(np.float64)
    exact = np.isin(exponent, EXACT_EXPONENTS)
    with np.errstate(all="ignore"):
        square, reciprocal = (wide * wide).astype(x.dtype), (1.0 / wide).astype(x.dtype)
        general = libm("pow", x[~exact], exponent[~exact])
    result = np.select([exponent == 0, exponent == 1, exponent == 2],
                       [np.ones_like(x), x, square], reciprocal).astype(x.dtype)
    result[~exact] = general
    return result


FLOAT_MATH = {"sqrt": np.sqrt, "fabs": np.fabs, "floor": np.floor, "ceil": np.ceil,
              "trunc": np.trunc, "copysign": np.copysign, "fmod": np.fmod, "pow": float_power}
FLOAT_MATH.update({name: (lambda x, name=name: libm(name, x))
                   for name in ("exp", "log", "sin", "cos")})
TO_INTEGER = {"math.floor": np.floor, "math.ceil": np.ceil, "math.trunc": np.trunc}
PREDICATES = {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite}
NUMPY_MINMAX = {"np.minimum": np.minimum, "np.maximum": np.maximum, "np.fmin": np.fmin,
                "np.fmax": np.fmax}


@dataclass
class Value:
    type: ScalarType
    data: object
    undefined: np.ndarray
    # A float product round(x * y) that an add or subtract may fuse, on the rows of `mask`:
    # (x, y, mask), arrays of the value's kind.
    factors: tuple = None
    # Its other results where this node's own add or subtract is contracted into an fma.
    fused: tuple = ()
    # Rows where a contraction below this node may change it (contracting targets only).
    uncertain: np.ndarray = field(default=None)

    def contraction_changes(self):
        """Rows where a contracting target may give another result than `data`."""
        changed = np.zeros(len(self.undefined), dtype=bool)
        for alternative in self.fused:
            changed |= contraction.differs(alternative, self.data)
        return changed if self.uncertain is None else changed | self.uncertain

    def factors_as(self, kind, sign=1):
        """This value's factors if it is a product of `kind` (negated for `sign` -1)."""
        if self.factors is None or self.type.weak or self.type.kind != kind:
            return None
        x, y, mask = self.factors
        return (-x if sign < 0 else x), y, mask


def _no_rows_undefined(rows):
    return np.zeros(rows, dtype=bool)


def cast_array(data, src, dst):
    """kaji's `cast` op: ints wrap, to bool is `!= 0` (NaN is truthy), float to int truncates
    and saturates with NaN -> 0 (docs/codegen.md, Cast)."""
    if src == dst:
        return data
    if dst == "bool":
        return data != 0
    if is_float(src) and is_int(dst):
        lo, hi = int_range(dst)
        t = np.trunc(data.astype(np.float64))
        over, under, nan = t >= float(hi) + 1.0, t < float(lo), np.isnan(t)
        inside = np.where(over | under | nan, 0.0, t).astype(dst)
        return np.where(over, np.array(hi, dst), np.where(under, np.array(lo, dst), inside))
    return data.astype(dst)


class Evaluator:
    """Evaluates trees over `columns` (one array per input column)."""

    def __init__(self, columns):
        self.columns = columns
        self.rows = len(columns[0])
        # Uses of a literal whose rule is undecided (out of range in a ternary);
        # the generator consults it.
        self.undecided_literals = 0
        # The values each node being evaluated has consumed, innermost last.
        self._consumed = []

    def convert(self, value, kind, arithmetic=False):
        """`value` as an array of `kind`. A weak integer outside an integer `kind`'s range is a
        compile-time error in arithmetic (NumPy's OverflowError)."""
        if not value.type.weak:
            return cast_array(value.data, value.type.kind, kind)
        literal = value.data
        if is_int(kind) and isinstance(literal, int) and not isinstance(literal, bool):
            lo, hi = int_range(kind)
            if not lo <= literal <= hi:
                if arithmetic:
                    raise LiteralOutOfRange(f"{literal} does not fit {kind}")
                self.undecided_literals += 1
                literal = np.array(literal & 0xFFFFFFFFFFFFFFFF, np.uint64).astype(kind)
        return np.full(self.rows, literal, dtype=kind)

    def strong(self, kind, data, undefined):
        return Value(ScalarType(kind), data, undefined)

    def evaluate(self, node):
        """`node`'s Value; rows that a contraction in a subtree may change are `uncertain`."""
        self._consumed.append([])
        try:
            with np.errstate(all="ignore"):
                value = getattr(self, "_" + node.op)(node)
        finally:
            operands = self._consumed.pop()
        uncertain = np.zeros(self.rows, dtype=bool)
        for operand in operands:
            uncertain |= operand.contraction_changes()
        value.uncertain = uncertain if value.uncertain is None else value.uncertain | uncertain
        if self._consumed:
            self._consumed[-1].append(value)
        return value

    def truth(self, value):
        if value.type.weak:
            return np.full(self.rows, bool(value.data))
        return cast_array(value.data, value.type.kind, "bool")

    def _var(self, node):
        column = self.columns[node.value]
        return self.strong(column.dtype.name, column, _no_rows_undefined(self.rows))

    def _lit(self, node):
        literal = node.value
        kind = ("bool" if isinstance(literal, bool) else
                "float64" if isinstance(literal, float) else
                "uint64" if literal > 2 ** 63 - 1 else "int64")
        return Value(ScalarType(kind, True), literal, _no_rows_undefined(self.rows))

    def _bin(self, node):
        a, b = (self.evaluate(child) for child in node.children)
        return self.binary(node.value, a, b)

    def binary(self, op, a, b):
        if a.type.weak and b.type.weak:
            raise IllTyped("the generator keeps literal-only arithmetic out")
        kind = promote(a.type, b.type).kind
        if op in BITWISE + SHIFTS and is_float(kind):
            raise IllTyped(f"{op} on {kind}")
        if op == "/" and not is_float(kind):
            # Both operands become float64 first, so no literal is out of range (NumPy 2:
            # np.int16(5) / 40000 is 0.000125).
            kind = "float64"
        x = self.convert(a, kind, arithmetic=True)
        y = self.convert(b, kind, arithmetic=True)
        if kind == "bool" and op not in BITWISE:
            kind, x, y = "int64", x.astype(np.int64), y.astype(np.int64)
        undefined = a.undefined | b.undefined
        if op in ("//", "%") and is_float(kind):
            undefined = undefined | (y == 0)  # Python raises; kaji documents no result
        value = self.strong(kind, self._apply(op, kind, x, y), undefined)
        if is_float(kind):
            self._products(op, kind, a, b, x, y, value)
        return value

    @staticmethod
    def _products(op, kind, a, b, x, y, value):
        """Marks `value` as a product a contracting target may fuse into an add or subtract, or
        gives it the fused results if it is such an add or subtract. LLVM makes `x / C` with C a
        power of two `x * (1 / C)`, and drops `* 1`, `/ 1`, `- 0`, `+ -0.0` and `** 1`."""
        unit = _weak_float(b)
        if op in ("*", "/") and unit in (1.0, -1.0) and a.factors_as(kind) is not None:
            value.factors = a.factors_as(kind, unit)
        elif op == "*" and _weak_float(a) in (1.0, -1.0) and b.factors_as(kind) is not None:
            value.factors = b.factors_as(kind, _weak_float(a))
        elif op == "*":
            value.factors = (x, y, np.ones(len(x), dtype=bool))
        elif op == "/" and (b.type.weak or np.all(y == y[0])):
            with np.errstate(all="ignore"):
                inverse = (1.0 / y).astype(kind)
            exact = _power_of_two(y) & (np.abs(inverse) >= np.finfo(kind).smallest_normal) & \
                np.isfinite(inverse)
            value.factors = (x, inverse, exact)
        elif op == "**" and np.all(y == 2):
            value.factors = (x, x, np.ones(len(x), dtype=bool))
        elif op == "**" and np.all(y == 1) and a.factors_as(kind) is not None:
            value.factors = a.factors_as(kind)
        elif op in ("+", "-") and unit == 0.0 and (op == "-") != bool(np.signbit(unit)) and \
                a.factors_as(kind) is not None:
            value.factors = a.factors_as(kind)
        elif op in ("+", "-"):
            alternatives = []
            first = a.factors_as(kind)
            if first is not None:
                alternatives.append((first, y if op == "+" else -y))
            second = b.factors_as(kind, -1 if op == "-" else 1)
            if second is not None:
                alternatives.append((second, x))
            value.fused = tuple(np.where(mask, contraction.fused(px, py, addend, kind), value.data)
                                for (px, py, mask), addend in alternatives)

    @staticmethod
    def _apply(op, kind, x, y):
        if op == "**":
            return float_power(x, y) if is_float(kind) else integer_power(x, y)
        function = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
                    "//": np.floor_divide, "%": np.remainder, "**": np.power,
                    "<<": np.left_shift, ">>": np.right_shift, "&": np.bitwise_and,
                    "|": np.bitwise_or, "^": np.bitwise_xor}[op]
        return function(x, y).astype(kind)

    def _cmp(self, node):
        values = [self.evaluate(child) for child in node.children]
        result = np.ones(self.rows, dtype=bool)
        undefined = _no_rows_undefined(self.rows)
        for op, a, b in zip(node.value, values, values[1:]):
            result &= self.compare(op, a, b)
            undefined |= a.undefined | b.undefined
        return self.strong("bool", result, undefined)

    def compare(self, op, a, b):
        """Mathematically exact where the operands decide it (decided_comparison) and between
        uint64 and a signed integer (issue 21: NumPy 2 and Python compare those exactly, where
        their promoted type, float64, rounds both); otherwise both converted to the promoted
        type."""
        decided = decided_comparison(op, a, b)
        if decided is not None:
            return np.full(self.rows, decided)
        kind = promote(a.type, b.type).kind
        if is_float(kind) and is_int(a.type.kind) and is_int(b.type.kind):
            return _compare(op, a.data.astype(object), b.data.astype(object)).astype(bool)
        return _compare(op, self.convert(a, kind), self.convert(b, kind))

    def _unary(self, node):
        a = self.evaluate(node.children[0])
        if node.value == "not":
            return self.strong("bool", ~self.truth(a), a.undefined)
        if node.value == "~" and is_float(a.type.kind):
            raise IllTyped("~ on a float")
        kind = "int64" if a.type.kind == "bool" else a.type.kind
        x = self.convert(a, kind)
        result = {"-": np.negative, "+": np.positive, "~": np.invert}[node.value](x)
        return Value(ScalarType(kind, a.type.weak), result.astype(kind), a.undefined,
                     factors=a.factors_as(kind, -1 if node.value == "-" else 1))

    def _boolop(self, node):
        values = [self.evaluate(child) for child in node.children]
        t = values[0].type
        for v in values[1:]:
            t = promote(t, v.type)
        result = self.convert(values[-1], t.kind)
        undefined = values[-1].undefined
        for v in reversed(values[:-1]):
            stop = ~self.truth(v) if node.value == "and" else self.truth(v)
            result = np.where(stop, self.convert(v, t.kind), result)
            undefined = v.undefined | (~stop & undefined)
        return Value(t, result, undefined)

    def condition(self, node):
        """The truth of `node` as a condition (an `if`, a ternary's test): `and`/`or`/`not`
        test each operand's own truth, as Python's bytecode and Numba do; anything else is the
        truth of its value (docs/sema.md, "Truth of and/or")."""
        if node.op == "boolop":
            truths = [self.condition(child) for child in node.children]
            return (np.logical_and if node.value == "and" else np.logical_or).reduce(truths)
        if node.op == "unary" and node.value == "not":
            return ~self.condition(node.children[0])
        return self.truth(self.evaluate(node))

    def _ifexp(self, node):
        body, test, orelse = (self.evaluate(child) for child in node.children)
        t = promote(body.type, orelse.type)
        holds = self.condition(node.children[1])
        result = np.where(holds, self.convert(body, t.kind), self.convert(orelse, t.kind))
        undefined = test.undefined | np.where(holds, body.undefined, orelse.undefined)
        value = Value(t, result.astype(t.kind), undefined)
        if node.children[1].op == "lit":  # kaji keeps the chosen operand only
            value.factors = (body if node.children[1].value else orelse).factors_as(t.kind)
        return value

    def _call(self, node):
        args = [self.evaluate(child) for child in node.children]
        undefined = np.zeros(self.rows, dtype=bool)
        for arg in args:
            undefined = undefined | arg.undefined
        name = node.value
        if name in CASTS:
            value = self.strong(CASTS[name], self.convert(args[0], CASTS[name]), undefined)
            value.factors = args[0].factors_as(CASTS[name])
            return value
        if name == "bool":
            return self.strong("bool", self.truth(args[0]), undefined)
        t = args[0].type
        for arg in args[1:]:
            t = promote(t, arg.type)
        kind = "int64" if t.kind == "bool" else t.kind
        if name in ("abs", "np.abs"):
            x = self.convert(args[0], kind)
            result = np.abs(x) if is_float(kind) or kind.startswith("int") else x
            return Value(ScalarType(kind, t.weak), result.astype(kind), undefined)
        if name in ("min", "max"):
            result = self._python_min_max(name, args)
            return Value(result.type, result.data, undefined)
        if name in NUMPY_MINMAX:
            # numpy's ufuncs: a literal takes the other operand's type, which must hold it
            # (NumPy 2's OverflowError for np.maximum(np.uint16(0), -1)).
            x, y = (self.convert(arg, kind, arithmetic=True) for arg in args)
            result = NUMPY_MINMAX[name](x, y)
            if is_float(kind):
                # -0.0 and +0.0: minimum/maximum order -0.0 below +0.0, fmin/fmax may give
                # either (docs/sema.md); numpy's own loops differ between the two.
                zeros = (x == 0) & (y == 0) & (np.signbit(x) != np.signbit(y))
                if name in ("np.fmin", "np.fmax"):
                    undefined = undefined | zeros
                else:
                    result = np.where(zeros, np.array(-0.0 if name == "np.minimum" else 0.0,
                                                      kind), result)
            return self.strong(kind, result, undefined)
        if name in TO_INTEGER:
            if not is_float(t.kind):
                return self.strong("int64", self.convert(args[0], "int64"), undefined)
            floored = TO_INTEGER[name](self.convert(args[0], t.kind))
            return self.strong("int64", cast_array(floored, t.kind, "int64"), undefined)
        if name == "np.power":
            # The `**` operator's operation and types (docs/sema.md): np.power(float16, 2.0)
            # is float16, unlike math.pow.
            return self.binary("**", *args)
        short = name.split(".")[1]
        float_kind = t.kind if is_float(t.kind) else "float64"
        if float_kind == "float16":
            float_kind = "float32"  # kaji computes float16 math in float32
        x = [self.convert(arg, float_kind) for arg in args]
        if short in PREDICATES:
            return self.strong("bool", PREDICATES[short](x[0]), undefined)
        if short == "copysign":
            # IEEE 754 leaves the sign of a NaN from an invalid operation open (x86 gives -NaN,
            # LLVM's constant folder +NaN), so copying it has no defined result.
            undefined = undefined | np.isnan(x[1])
        value = self.strong(float_kind, FLOAT_MATH[short](*x).astype(float_kind), undefined)
        if short == "pow" and np.all(x[1] == 2):
            value.factors = (x[0], x[0], np.ones(self.rows, dtype=bool))
        elif short == "pow" and np.all(x[1] == 1):
            value.factors = args[0].factors_as(float_kind)
        return value

    def _python_min_max(self, name, args):
        """Python's min/max, left to right: a later operand replaces the result where it is
        smaller (larger), so which operand a NaN wins from depends on the order; bools are
        and/or. Where the operands decide the comparison (an integer literal outside the other
        operand's integer type, or two integer literals) the result is the operand Python
        returns, in its own type: max(u16, -1) is the uint16, min(-7, u16) is -7 (issue 21)."""
        result = args[0]
        for arg in args[1:]:
            replaces = decided_comparison("<" if name == "min" else ">", arg, result)
            if replaces is not None:
                result = arg if replaces else result
                continue
            t = promote(result.type, arg.type)
            x, y = self.convert(result, t.kind), self.convert(arg, t.kind)
            if t.kind == "bool":
                data = x & y if name == "min" else x | y
            else:
                data = np.where(y < x if name == "min" else y > x, y, x)
            result = Value(t, data, result.undefined)
        return result


def _weak_float(value):
    """A weak literal's value as a float, else None."""
    return float(value.data) if value.type.weak else None


def _power_of_two(values):
    mantissa, _ = np.frexp(values.astype(np.float64))
    return np.abs(mantissa) == 0.5


def _is_int_literal(value):
    return value.type.weak and isinstance(value.data, int) and not isinstance(value.data, bool)


def decided_comparison(op, a, b):
    """`a op b` where the operands alone decide it, as Python and NumPy 2 compare (docs/sema.md):
    two integer literals exactly, and an integer literal outside the other operand's integer
    type as the number it is, beyond every value of the type (issue 8's rule). None where the
    values decide."""
    if _is_int_literal(a) and _is_int_literal(b):
        return bool(_compare(op, a.data, b.data))
    t = promote(a.type, b.type)
    for literal, flipped in ((a, True), (b, False)):
        if _is_int_literal(literal) and is_int(t.kind) and not t.weak:
            lo, hi = int_range(t.kind)
            if not lo <= literal.data <= hi:
                # Beyond every value of the type, the literal compares as it does with 0.
                return bool(_compare(op, literal.data, 0) if flipped else
                            _compare(op, 0, literal.data))
    return None


def _compare(op, x, y):
    return {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
            "==": np.equal, "!=": np.not_equal}[op](x, y)


def integer_power(base, exponent):
    """Wrapping square-and-multiply; a negative exponent gives 1 for base 1, +-1 by parity for
    base -1, else 0 (docs/ir.md, pow)."""
    kind = base.dtype
    bits = exponent.astype(np.uint64)
    result = np.ones_like(base)
    square = base.copy()
    for _ in range(64):
        result = np.where(bits & np.uint64(1), result * square, result).astype(kind)
        square = (square * square).astype(kind)
        bits = bits >> np.uint64(1)
    if kind.kind == "i":
        negative = exponent < 0
        odd = (exponent & 1) == 1
        special = np.where(base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0))
        result = np.where(negative, special.astype(kind), result)
    return result


def run_item(evaluator, item):
    """The item's value per row, as kaji's statement forms compute it."""
    with np.errstate(all="ignore"):
        return _run_item(evaluator, item)


def _run_item(evaluator, item):
    e = [evaluator.evaluate(expr) for expr in item.exprs]
    if item.form == "expr":
        return e[0]
    if item.form == "ifelse":
        first, test, second = e
        t = promote(first.type, second.type)
        holds = evaluator.condition(item.exprs[1])
        data = np.where(holds, evaluator.convert(second, t.kind), evaluator.convert(first, t.kind))
        undefined = test.undefined | np.where(holds, second.undefined, first.undefined)
        uncertain = test.contraction_changes() | first.contraction_changes() | \
            second.contraction_changes()
        return Value(t, data.astype(t.kind), undefined, uncertain=uncertain)
    trips = 1 if item.form == "aug" else LOOP_TRIPS
    # A variable has one type: the fixed point of its assignments' types (docs/sema.md).
    kind = e[0].type.kind
    while True:
        probe = evaluator.binary(item.op, Value(ScalarType(kind), evaluator.convert(e[0], kind),
                                                e[0].undefined), e[1])
        widened = promote(ScalarType(kind), probe.type).kind
        if widened == kind:
            break
        kind = widened
    value = Value(ScalarType(kind), evaluator.convert(e[0], kind), e[0].undefined,
                  factors=e[0].factors_as(kind), uncertain=e[0].contraction_changes())
    for _ in range(trips):
        step = evaluator.binary(item.op, value, e[1])
        step.uncertain = value.contraction_changes() | e[1].contraction_changes()
        if step.type.kind != kind:
            step = Value(ScalarType(kind), cast_array(step.data, step.type.kind, kind),
                         step.undefined, uncertain=step.contraction_changes())
        value = step
    return value

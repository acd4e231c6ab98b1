"""Random well-typed expressions and statement items over the input columns' kinds."""

import numpy as np

from .expressions import Item, Node
from .reference import ARITHMETIC, BITWISE, COMPARISONS, SHIFTS, Evaluator
from .scalars import (IllTyped, LiteralOutOfRange, edge_values, int_range, is_float,
                      is_int)

LITERAL_MIN, LITERAL_MAX = -(2 ** 63) + 1, 2 ** 64 - 1
FLOAT_EXPONENTS = (0, 1, 2, -1, 0.0, 1.0, 2.0, -1.0)
# Math-library functions, generated only at the root of an item, whose result is compared
# within an ulp bound (comparison.py).
APPROXIMATE = ("math.exp", "np.exp", "math.log", "np.log", "math.sin", "np.sin", "math.cos",
               "np.cos")
APPROXIMATE_EXPONENTS = (3.0, -2.0, 0.5, 1.5, -0.5, 10.0)
UNARY_MATH = ("math.sqrt", "np.sqrt", "math.fabs", "np.fabs", "np.floor", "np.ceil",
              "np.trunc", "math.floor", "math.ceil", "math.trunc", "math.isnan", "np.isnan",
              "math.isinf", "np.isinf", "math.isfinite", "np.isfinite", "abs", "np.abs")
NUMPY_MINMAX_NAMES = ("np.minimum", "np.maximum", "np.fmin", "np.fmax")
BINARY_MATH = ("math.copysign", "np.copysign", "math.fmod", "np.fmod", "min",
               "max") + NUMPY_MINMAX_NAMES
CAST_NAMES = ("np.int8", "np.int16", "np.int32", "np.int64", "np.uint8", "np.uint16",
              "np.uint32", "np.uint64", "np.float16", "np.float32", "np.float64", "float", "int",
              "bool")


class Rejected(Exception):
    """The candidate breaks a rule the generator keeps; draw another."""


class Generator:
    def __init__(self, rng, column_kinds):
        self.rng = rng
        self.kinds = column_kinds
        self.typer = Evaluator([np.zeros(1, dtype=kind) for kind in column_kinds])
        self.expects_error = False

    def item(self):
        """(Item, whether kaji must reject it with a CompileError)."""
        while True:
            self.expects_error = False
            try:
                return self._item(), self.expects_error
            except Rejected:
                continue

    def _item(self):
        form = self._pick(("expr", "expr", "expr", "expr", "expr", "ifelse", "aug", "loop",
                           "approximate"))
        depth = int(self.rng.integers(1, 5))
        if form == "expr":
            return Item("expr", (self.strong(depth),))
        if form == "approximate":
            return Item("expr", (self.approximate(depth - 1),))
        if form == "ifelse":
            test = self.strong(depth - 1)
            first = self.strong(depth - 1)
            certain = self.expects_error
            second = self.strong(depth - 1)
            if self.expects_error and not certain:
                # Only in the body, which kaji drops unlowered when the test folds to False
                # (docs/sema.md): an error there is not certain.
                raise Rejected()
            return Item("ifelse", (first, test, second))
        op = self._pick(ARITHMETIC[:-1] + BITWISE)
        first = self.strong(depth - 1)
        second = self.operand_for(first, depth - 1)
        self.kind_of(Node("bin", (first, second), op))  # rejects what kaji would not type
        return Item(form, (first, second), op)

    def _pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def type_of(self, node):
        self.typer.undecided_literals = 0
        try:
            value = self.typer.evaluate(node)
        except IllTyped:
            raise Rejected()
        except LiteralOutOfRange:
            self.expects_error = True
            return None
        if self.typer.undecided_literals:
            raise Rejected()
        return value.type

    def kind_of(self, node):
        """The strong kind of `node`; None once the item is a CompileError anyway."""
        t = self.type_of(node)
        if t is None:
            return None
        if t.weak:
            raise Rejected()
        return t.kind

    def strong(self, depth):
        """A tree of strong type whose depth is at most `depth`."""
        if depth <= 0 or self.rng.random() < 0.15:
            return self.leaf()
        builder = self._pick((self.binary, self.binary, self.binary, self.comparison,
                              self.unary, self.call, self.call, self.cast, self.ternary,
                              self.boolop))
        node = builder(depth - 1)
        self.kind_of(node)  # rejects what kaji would not type, or types weak
        return node

    def leaf(self):
        return Node("var", value=int(self.rng.integers(len(self.kinds))))

    def literal_for(self, kind, out_of_range_ok=True):
        """A literal to combine with a value of `kind`."""
        r = self.rng.random()
        if is_int(kind) and r < 0.7:
            lo, hi = int_range(kind)
            if out_of_range_ok and self.rng.random() < 0.15:
                outside = [v for v in (hi + 1, lo - 1, 300, -1, 2 ** 63, LITERAL_MAX, LITERAL_MIN)
                           if not lo <= v <= hi and LITERAL_MIN <= v <= LITERAL_MAX]
                return Node("lit", value=self._pick(outside))
            return Node("lit", value=self._pick([v for v in edge_values(kind)
                                                 if v >= LITERAL_MIN] + [5, 10]))
        if r < 0.8 or kind == "bool":
            return Node("lit", value=self._pick((0, 1, 2, 3, -1, -7, 100, 2 ** 31, True, False)))
        return Node("lit", value=float(self._pick(edge_values("float64"))))

    def operand_for(self, partner, depth, out_of_range_ok=True):
        if self.rng.random() < 0.35:
            return self.literal_for(self.kind_of(partner), out_of_range_ok)
        return self.strong(depth)

    def _ordered(self, a, b):
        return (a, b) if self.rng.random() < 0.5 else (b, a)

    def binary(self, depth):
        op = self._pick(ARITHMETIC + ARITHMETIC + BITWISE + SHIFTS)
        if op in ("+", "-") and depth > 0 and self.rng.random() < 0.3:
            a = self.product(depth - 1)  # a * b ± c, which the cuda targets may fuse
        else:
            a = self.strong(depth)
        if op == "**":
            return self.power(a)
        b = self.operand_for(a, depth)
        return Node("bin", self._ordered(a, b), op)

    def product(self, depth):
        a = self.strong(depth)
        node = Node("bin", self._ordered(a, self.operand_for(a, depth)), "*")
        self.kind_of(node)  # rejects what kaji would not type
        return node

    def power(self, base):
        kind = self.kind_of(base)
        if is_float(kind or ""):
            exponent = Node("lit", value=self._pick(FLOAT_EXPONENTS))
        elif self.rng.random() < 0.5:
            exponent = Node("lit", value=int(self.rng.integers(-2, 10)))
        else:
            exponent = self.leaf()
        node = Node("bin", (base, exponent), "**")
        if is_float(self.kind_of(node) or "") and exponent.op != "lit":
            raise Rejected()  # float pow of a variable exponent: libm accuracy differs
        return node

    def comparison(self, depth):
        if self.rng.random() < 0.05:
            values = sorted(int(v) for v in self.rng.integers(-5, 5, size=3))
            return Node("cmp", tuple(Node("lit", value=v) for v in values), ("<=", "<="))
        a = self.strong(depth)
        operands, ops = [a], []
        for _ in range(int(self.rng.integers(1, 3))):
            operands.append(self.operand_for(a, depth))
            ops.append(self._pick(COMPARISONS))
        if all(o.op == "lit" for o in operands[1:]) or self.rng.random() < 0.5:
            operands[0], operands[1] = operands[1], operands[0]
        return Node("cmp", tuple(operands), tuple(ops))

    def unary(self, depth):
        return Node("unary", (self.strong(depth),), self._pick(("-", "+", "~", "not")))

    def cast(self, depth):
        arg = self.strong(depth)
        return Node("call", (arg,), self._pick(CAST_NAMES))

    def call(self, depth):
        if self.rng.random() < 0.5:
            name = self._pick(UNARY_MATH)
            arg = self.strong(depth)
            kind = self.kind_of(arg)
            if (name == "np.abs" and kind in ("bool", None)) or (name.startswith("math.") and
                                                          kind == "uint64" and
                                                          name[5:] in ("floor", "ceil", "trunc")):
                raise Rejected()
            return Node("call", (arg,), name)
        if self.rng.random() < 0.15:
            return self.pow_call(depth)
        name = self._pick(BINARY_MATH)
        a = self.strong(depth)
        # Literals out of the other operand's range: decided in min/max, an error in numpy's
        # ufuncs (docs/sema.md); math functions compute integers in float64.
        out_of_range_ok = name in ("min", "max") or name in NUMPY_MINMAX_NAMES
        args = list(self._ordered(a, self.operand_for(a, depth, out_of_range_ok)))
        if name in ("min", "max") and self.rng.random() < 0.3:
            args.append(self.operand_for(a, depth, out_of_range_ok))
        node = Node("call", tuple(args), name)
        self.kind_of(node)  # rejects what kaji would not type
        if name in ("np.minimum", "np.maximum") and \
                any(self.kind_of(arg) in ("bool", None) for arg in args):
            raise Rejected()
        return node

    def pow_call(self, depth):
        base = self.strong(depth)
        name = self._pick(("math.pow", "np.power"))
        if name == "np.power" and not is_float(self.kind_of(base) or ""):
            exponent = Node("lit", value=int(self.rng.integers(0, 40)))
        else:
            exponent = Node("lit", value=self._pick(FLOAT_EXPONENTS))
        return Node("call", (base, exponent), name)

    def approximate(self, depth):
        """A math-library function of a tree: transcendental, or pow of an exponent kaji does
        not compute exactly."""
        arg = self.strong(depth)
        if self.kind_of(arg) in ("bool", None):
            raise Rejected()
        if self.rng.random() < 0.4:
            exponent = Node("lit", value=self._pick(APPROXIMATE_EXPONENTS))
            node = Node("call", (arg, exponent), self._pick(("math.pow", "np.power")))
        else:
            node = Node("call", (arg,), self._pick(APPROXIMATE))
        self.kind_of(node)
        return node

    def ternary(self, depth):
        body = self.strong(depth)
        orelse = self.operand_for(body, depth, out_of_range_ok=False)
        if self.rng.random() < 0.1:
            test = Node("lit", value=self._pick((True, False, 0, 1)))
        else:
            test = self.strong(depth)
        body, orelse = self._ordered(body, orelse)
        return Node("ifexp", (body, test, orelse))

    def boolop(self, depth):
        first = self.strong(depth)
        operands = [first] + [self.operand_for(first, depth, out_of_range_ok=False)
                              for _ in range(int(self.rng.integers(1, 3)))]
        return Node("boolop", tuple(operands), self._pick(("and", "or")))

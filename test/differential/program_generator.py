"""Random well-defined programs (programs.py) whose every result has one right answer.

Expressions come from the scalar tester's Generator, over the slots in scope, with loads of
local arrays and device-function calls as extra leaves. What keeps a program deterministic:
every index is masked into its array; loops run at most a few trips; barriers only at the
kernel's top level, where every thread of the block reaches them; atomics only on integers,
with operations whose final value is independent of their order, their old value unused.
And, as in the scalar tester, no float product ever reaches a float `+`/`-`, across
statements neither (both GPU backends and the cpu one may contract it to an fma, anywhere
after inlining): variables, arrays and device functions that may hold one are tracked."""

import numpy as np

from .expressions import Node, decides_a_condition
from .generator import Generator, Rejected
from .interpreter import ProgramEvaluator
from .programs import (BLOCK, Array, Assign, Atomic, AugAssign, Break, DeviceFunction,
                       ForRange, If, Program, Rebind, SharedExchange, Slot, Store, While)
from .reference import ARITHMETIC, BITWISE, SHIFTS
from .scalars import FLOATS, KINDS

ATOMIC_OPS = ("add", "sub", "max", "min", "and_", "or_", "xor")
ATOMIC_KINDS = ("int32", "uint32", "int64", "uint64")
ARRAY_SIZES = (4, 8)
ATTEMPTS = 30


class Typer(ProgramEvaluator):
    """The generator's typer: one-row values, each node typed once (the generator types every
    subtree again as it grows a tree). A hit replays the node's count of undecided literals."""

    def __init__(self, columns, arrays, functions):
        super().__init__(columns, arrays, functions)
        self.typed = {}

    def evaluate(self, node):
        found = self.typed.get(id(node))
        if found is not None and found[0] is node:
            self.undecided_literals += found[2]
            return found[1]
        before = self.undecided_literals
        value = super().evaluate(node)
        self.typed[id(node)] = (node, value, self.undecided_literals - before)
        return value


class ExpressionGenerator(Generator):
    """The scalar Generator over a program's slots in scope, with `load` and `dcall` leaves."""

    def __init__(self, rng, slots, arrays, functions, variable_conditions=False):
        super().__init__(rng, [slot.kind for slot in slots])
        self.variable_conditions = variable_conditions
        self.scope = list(range(len(slots)))
        self.functions = functions
        self.products = set()  # slots and array names that may hold a float product
        self.typer = Typer(
            [np.zeros(1, dtype=slot.kind) for slot in slots],
            {a.name: np.zeros((1, a.size), dtype=a.kind) for a in arrays if a.space == "local"},
            functions)
        self.nesting = 0

    def type_of(self, node):
        t = super().type_of(node)
        if self.expects_error:
            self.expects_error = False
            raise Rejected()  # a program is not spent on one expected CompileError
        return t

    def strong(self, depth):
        node = super().strong(depth)
        if self.variable_conditions and decides_a_condition(node):
            raise Rejected()
        return node

    def test(self, depth):
        """A condition (of an `if`, a `break`) that holds a variable where
        `variable_conditions` asks for it."""
        node = self.strong(depth)
        if self.variable_conditions and not node.columns():
            raise Rejected()
        return node

    def leaf(self):
        r = self.rng.random()
        if self.nesting < 2 and r < 0.12 and self.typer.arrays:
            return self._load()
        if self.nesting < 2 and r < 0.2 and self.functions:
            return self._call()
        return Node("var", value=self._pick(self.scope))

    def _nested(self, make):
        self.nesting += 1
        try:
            return make()
        finally:
            self.nesting -= 1

    def _load(self):
        name = self._pick(sorted(self.typer.arrays))
        return Node("load", (self.integer(1),), name)

    def _call(self):
        index = int(self.rng.integers(len(self.functions)))
        kinds = self.functions[index].params
        args = tuple(self._nested(lambda: self.strong(1)) for _ in kinds)
        if any(self._is_float_product(arg) for arg in args):
            raise Rejected()  # inlined, the parameter could meet an add in the body
        return Node("dcall", args, (index, kinds))

    def integer(self, depth):
        """A strong expression of integer (or bool) kind: an index, a trip count."""
        node = self._nested(lambda: self.strong(depth))
        if self.kind_of(node) in FLOATS:
            node = Node("call", (node,), "np.int64")
        return node

    def binary(self, depth):
        # The interpreter rounds every operation, and the cuda targets may fuse a product into
        # the add or subtract it feeds (docs/sema.md): programs keep products away from them.
        node = super().binary(depth)
        if (node.op == "bin" and node.value in ("+", "-") and self.kind_of(node) in FLOATS and
                any(self._is_float_product(child) for child in node.children)):
            raise Rejected()
        return node

    def _is_float_product(self, node):
        if self.kind_of(node) not in FLOATS:
            return False
        bare = node
        while bare.op == "unary" and bare.value in ("+", "-"):
            bare = bare.children[0]
        if (bare.op == "bin" and bare.value in ("*", "**")) or (
                bare.op == "call" and bare.value in ("math.pow", "np.power")):
            return True  # pow(x, 2) is x * x
        if node.op == "var":
            return node.value in self.products
        if node.op == "load":
            return node.value in self.products
        if node.op == "dcall":
            return self.functions[node.value[0]].product
        return any(self._is_float_product(child) for child in node.children)


class ProgramGenerator:
    """With `variable_conditions`, every condition holds a variable: CPython's compiler then
    folds none, and the program compiled from its bytecode must give the same results as from
    its source text (program_campaign.py). It draws other programs from the same seed."""

    def __init__(self, rng, input_kinds, variable_conditions=False):
        self.rng = rng
        self.input_kinds = input_kinds
        self.variable_conditions = variable_conditions

    def _pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def _count(self, low, high):
        return int(self.rng.integers(low, high + 1))

    def program(self):
        slots = [Slot(f"v{j}[i]", kind) for j, kind in enumerate(self.input_kinds)]
        arrays = [Array(f"la{k}", "local", self._pick(KINDS), self._pick(ARRAY_SIZES))
                  for k in range(self._count(0, 2))]
        arrays.append(Array("sh0", "shared", self._pick(KINDS), BLOCK))
        arrays += [Array(f"acc{k}", "global", self._pick(ATOMIC_KINDS), self._pick(ARRAY_SIZES),
                         self._pick(ATOMIC_OPS)) for k in range(self._count(0, 2))]
        functions = []
        for _ in range(self._count(0, 3)):
            function = self._attempt(lambda: self._function(functions))
            if function is not None:
                functions.append(function)
        inputs = len(slots)
        slots += [Slot(f"t{k}", self._pick(KINDS)) for k in range(self._count(3, 6))]
        self.program_ = Program(inputs, slots, arrays, functions, [])
        self.variables = list(range(inputs, len(slots)))
        self.expressions = ExpressionGenerator(self.rng, slots, arrays, functions,
                                               self.variable_conditions)
        self.expressions.scope = list(range(inputs))
        body = []
        for slot in self.variables:  # every variable is assigned before any control flow
            body.append(self._required(lambda: self._assign(slot, cast=True)))
            self.expressions.scope.append(slot)
        for _ in range(self._count(3, 7)):
            statement = self._attempt(lambda: self._statement(0, in_loop=False, top=True))
            if statement is not None:
                body.append(statement)
        self.program_.body = body
        self.program_.initial = len(self.variables)
        self.program_.results = list(self.variables)
        return self.program_

    def _attempt(self, make):
        for _ in range(ATTEMPTS):
            try:
                return make()
            except Rejected:
                continue
        return None

    def _required(self, make):
        while True:
            made = self._attempt(make)
            if made is not None:
                return made

    def _function(self, functions):
        params = tuple(self._pick(KINDS) for _ in range(self._count(1, 2)))
        kind = self._pick(KINDS)
        expressions = ExpressionGenerator(
            self.rng, [Slot(f"p{k}", t) for k, t in enumerate(params)], [], list(functions),
            self.variable_conditions)
        expr = expressions.strong(self._count(1, 3))
        test = second = None
        if self.rng.random() < 0.5:
            test = expressions.test(2)
            second = expressions.strong(self._count(1, 2))
        product = any(node is not None and expressions._is_float_product(node)
                      for node in (expr, second))
        return DeviceFunction(params, kind, expr, test, second, product)

    def _expression(self, depth=None):
        return self.expressions.strong(self._count(1, 3) if depth is None else depth)

    def _note_product(self, key, node):
        """`key` (a slot, an array) now may hold a float product if `node` is one."""
        if self.expressions._is_float_product(node):
            self.expressions.products.add(key)

    def _assign(self, slot, cast):
        kind = self.program_.slots[slot].kind
        expr = self._expression()
        if not cast and self.expressions.kind_of(expr) != kind:
            cast = True
        self._note_product(slot, expr)
        if kind in FLOATS and cast and self.expressions._is_float_product(
                Node("call", (expr,), f"np.{kind}")):
            self.expressions.products.add(slot)
        return Assign(slot, expr, cast)

    def _rebind(self):
        """A variable's name bound to a value of another kind: from here on the name is a new
        slot. At the top level only, where every later read sees the new binding."""
        old = self._pick(self.variables)
        kind = self._pick([k for k in KINDS if k != self.program_.slots[old].kind])
        slot = len(self.program_.slots)
        self.program_.slots.append(Slot(self.program_.slots[old].name, kind))
        self.expressions.typer.columns.append(np.zeros(1, dtype=kind))
        try:
            assign = self._assign(slot, cast=True)
        except Rejected:
            self.program_.slots.pop()
            self.expressions.typer.columns.pop()
            raise
        self.variables[self.variables.index(old)] = slot
        self.expressions.scope[self.expressions.scope.index(old)] = slot
        return Rebind(slot, assign.expr, assign.cast)

    def _aug_assign(self, slot):
        kind = self.program_.slots[slot].kind
        op = self._pick(ARITHMETIC[:-1] + BITWISE + SHIFTS)
        expr = self._expression(self._count(1, 2))
        combined = Node("bin", (Node("var", value=slot), expr), op)
        if self.expressions.kind_of(combined) != kind:
            raise Rejected()  # `t op= e` would change t's type
        if op in ("+", "-") and kind in FLOATS and (
                slot in self.expressions.products or self.expressions._is_float_product(expr)):
            raise Rejected()
        self._note_product(slot, combined)
        return AugAssign(slot, op, expr)

    def _statement(self, depth, in_loop, top):
        choices = ["assign", "assign", "assign", "aug", "store", "atomic"]
        if depth < 3:
            choices += ["if", "if"]
        if depth < 2:
            choices += ["for", "while"]
        if in_loop:
            choices += ["break"]
        if top:
            choices += ["shared", "rebind"]
        choice = self._pick(choices)
        if choice == "assign":
            return self._assign(self._pick(self.variables), cast=self.rng.random() < 0.7)
        if choice == "aug":
            return self._aug_assign(self._pick(self.variables))
        if choice == "if":
            test = self.expressions.test(2)
            body = self._block(depth + 1, in_loop)
            orelse = self._block(depth + 1, in_loop) if self.rng.random() < 0.4 else []
            return If(test, body, orelse)
        if choice == "for":
            return self._loop(ForRange, depth)
        if choice == "while":
            return self._loop(While, depth)
        if choice == "break":
            return Break(self.expressions.test(2))
        if choice == "rebind":
            return self._rebind()
        if choice == "store":
            return self._store(Store, "local")
        if choice == "atomic":
            return self._store(Atomic, "global")
        return self._shared()

    def _block(self, depth, in_loop):
        statements = []
        for _ in range(self._count(1, 2)):
            statement = self._attempt(lambda: self._statement(depth, in_loop, top=False))
            if statement is not None:
                statements.append(statement)
        return statements

    def _loop(self, form, depth):
        """A loop whose counter is in scope in its body only."""
        slot = len(self.program_.slots)
        self.program_.slots.append(Slot(f"j{slot}", "int64"))
        self.expressions.typer.columns.append(np.zeros(1, dtype=np.int64))
        if form is ForRange:
            count = self.expressions.integer(2)
        self.expressions.scope.append(slot)
        try:
            body = self._block(depth + 1, in_loop=True)
            if self.rng.random() < 0.6:
                body.insert(self._count(0, len(body)), Break(self.expressions.test(2)))
        finally:
            self.expressions.scope.remove(slot)
        if form is ForRange:
            return ForRange(slot, count, body)
        return While(slot, self._count(1, 4), body)

    def _store(self, form, space):
        arrays = [a for a in self.program_.arrays if a.space == space]
        if not arrays:
            raise Rejected()
        array = self._pick(arrays)
        index = self.expressions.integer(2)
        expr = self._expression()
        if space == "local":
            self._note_product(array.name, expr)
            return Store(array.name, index, expr)
        return Atomic(array.atomic, array.name, index, expr)

    def _shared(self):
        array = self.program_.array("sh0")
        slot = self._pick(self.variables)
        expr = self._expression()
        if self.expressions._is_float_product(expr):
            self.expressions.products.add(slot)
        return SharedExchange(array.name, expr, slot, self._count(1, BLOCK - 1))

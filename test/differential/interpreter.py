"""The programs' reference: runs a Program (programs.py) for every thread at once, the way a
GPU runs a warp: each statement over all threads with a mask of those that reach it, `if` and
loops narrowing the mask, `break` clearing a loop's threads. Scalars follow the expression
reference (reference.py), so the rules are docs/sema.md's.

A thread whose computation meets a value kaji documents no result for (reference.py's
`undefined`: float // and % by zero, copysign of NaN, fmin/fmax of signed zeros) is *tainted*:
its results are not compared, nor anything another thread reads from it (a shared-array
neighbour), and an accumulator it updated is not compared at all."""

from dataclasses import dataclass

import numpy as np

from .programs import (BLOCK, Assign, Atomic, AugAssign, Break, ForRange, If, SharedExchange,
                       Store, While)
from .reference import Evaluator, Value, cast_array
from .scalars import ScalarType

ATOMIC_UFUNCS = {"add": np.add, "sub": np.subtract, "max": np.maximum, "min": np.minimum,
                 "and_": np.bitwise_and, "or_": np.bitwise_or, "xor": np.bitwise_xor}


class ProgramEvaluator(Evaluator):
    """The expression reference with the programs' `load` and `dcall` nodes. `columns` are the
    slots' current values; `arrays` maps a local array's name to its [thread, element]
    contents."""

    def __init__(self, columns, arrays, functions):
        super().__init__(columns)
        self.arrays = arrays
        self.functions = functions

    def _load(self, node):
        index = self.evaluate(node.children[0])
        contents = self.arrays[node.value]
        element = self.convert(index, "int64") & (contents.shape[1] - 1)
        data = contents[np.arange(self.rows), element]
        return self.strong(contents.dtype.name, data, index.undefined)

    def _dcall(self, node):
        function_index, kinds = node.value
        function = self.functions[function_index]
        args = [self.evaluate(child) for child in node.children]
        undefined = np.zeros(self.rows, dtype=bool)
        for arg in args:
            undefined = undefined | arg.undefined
        body = ProgramEvaluator([self.convert(arg, kind) for arg, kind in zip(args, kinds)],
                                {}, self.functions)
        first = body.evaluate(function.expr)
        result = body.convert(first, function.kind)
        undefined = undefined | first.undefined
        if function.test is not None:
            test = body.evaluate(function.test)
            holds = body.condition(function.test)
            second = body.evaluate(function.second)
            result = np.where(holds, body.convert(second, function.kind), result)
            undefined = undefined | test.undefined | (holds & second.undefined)
        return self.strong(function.kind, result, undefined)


@dataclass
class Loop:
    broken: np.ndarray  # threads that left the innermost loop by `break`


@dataclass
class Outcome:
    """Per stored result (programs.result_layout order) its rows; the accumulators' final
    contents; the threads whose results are not compared; the accumulators not compared."""
    results: list
    accumulators: dict
    tainted: np.ndarray
    tainted_accumulators: set


class Interpreter:
    def __init__(self, program, inputs, accumulators):
        self.program = program
        self.rows = len(inputs[0])
        self.values = list(inputs) + [np.zeros(self.rows, dtype=slot.kind)
                                      for slot in program.slots[program.inputs:]]
        self.locals = {a.name: np.zeros((self.rows, a.size), dtype=a.kind)
                       for a in program.arrays if a.space == "local"}
        self.accumulators = {name: data.copy() for name, data in accumulators.items()}
        self.tainted = np.zeros(self.rows, dtype=bool)
        self.tainted_accumulators = set()
        self.evaluator = ProgramEvaluator(self.values, self.locals, program.functions)

    def run(self):
        with np.errstate(all="ignore"):
            self._block(self.program.body, np.ones(self.rows, dtype=bool), None)
        results = [self.values[j] for j in self.program.results]
        results += [self.locals[a.name][:, k] for a in self.program.arrays
                    if a.space == "local" for k in range(a.size)]
        return Outcome(results, self.accumulators, self.tainted, self.tainted_accumulators)

    def _evaluate(self, node, active):
        value = self.evaluator.evaluate(node)
        self.tainted |= value.undefined & active
        return value

    def _set(self, slot, data, active):
        self.values[slot] = np.where(active, data, self.values[slot]).astype(
            self.values[slot].dtype)

    def _block(self, statements, mask, loop):
        for statement in statements:
            active = mask if loop is None else mask & ~loop.broken
            if active.any():
                self._statement(statement, active, loop)

    def _statement(self, statement, active, loop):
        kind = type(statement).__name__
        getattr(self, "_" + kind)(statement, active, loop)

    def _slot_value(self, slot):
        return Value(ScalarType(self.program.slots[slot].kind), self.values[slot],
                     np.zeros(self.rows, dtype=bool))

    def _Assign(self, statement: Assign, active, loop):
        value = self._evaluate(statement.expr, active)
        kind = self.program.slots[statement.slot].kind
        self._set(statement.slot, self.evaluator.convert(value, kind), active)

    _Rebind = _Assign

    def _AugAssign(self, statement: AugAssign, active, loop):
        operand = self._evaluate(statement.expr, active)
        value = self.evaluator.binary(statement.op, self._slot_value(statement.slot), operand)
        self.tainted |= value.undefined & active
        kind = self.program.slots[statement.slot].kind
        self._set(statement.slot, cast_array(value.data, value.type.kind, kind), active)

    def _If(self, statement: If, active, loop):
        self._evaluate(statement.test, active)
        holds = self.evaluator.condition(statement.test)
        self._block(statement.body, active & holds, loop)
        self._block(statement.orelse, active & ~holds, loop)

    def _ForRange(self, statement: ForRange, active, loop):
        count = self.evaluator.convert(self._evaluate(statement.count, active), "int64") & 3
        inner = Loop(np.zeros(self.rows, dtype=bool))
        for trip in range(3):
            running = active & (trip < count) & ~inner.broken
            if not running.any():
                break
            self._set(statement.slot, np.full(self.rows, trip, dtype=np.int64), running)
            self._block(statement.body, running, inner)

    def _While(self, statement: While, active, loop):
        self._set(statement.slot, np.zeros(self.rows, dtype=np.int64), active)
        inner = Loop(np.zeros(self.rows, dtype=bool))
        for _ in range(statement.trips):
            running = active & ~inner.broken
            if not running.any():
                break
            self._set(statement.slot, self.values[statement.slot] + 1, running)
            self._block(statement.body, running, inner)

    def _Break(self, statement: Break, active, loop):
        self._evaluate(statement.test, active)
        loop.broken |= active & self.evaluator.condition(statement.test)

    def _element(self, statement, array, active):
        """(index, value) of a store into `array`: the index masked to the array's size."""
        index = self.evaluator.convert(self._evaluate(statement.index, active), "int64")
        value = self._evaluate(statement.expr, active)
        return index & (array.size - 1), self.evaluator.convert(value, array.kind)

    def _Store(self, statement: Store, active, loop):
        array = self.program.array(statement.array)
        index, data = self._element(statement, array, active)
        rows = np.nonzero(active)[0]
        self.locals[array.name][rows, index[rows]] = data[rows]

    def _SharedExchange(self, statement: SharedExchange, active, loop):
        array = self.program.array(statement.array)
        value = self._evaluate(statement.expr, active)
        stored = self.evaluator.convert(value, array.kind)
        rows = np.arange(self.rows)
        neighbour = rows // BLOCK * BLOCK + ((rows % BLOCK + statement.offset) & (BLOCK - 1))
        self.tainted = self.tainted | self.tainted[neighbour]
        kind = self.program.slots[statement.slot].kind
        self._set(statement.slot, cast_array(stored[neighbour], array.kind, kind), active)

    def _Atomic(self, statement: Atomic, active, loop):
        array = self.program.array(statement.array)
        index, data = self._element(statement, array, active)
        rows = np.nonzero(active)[0]
        if self.tainted[rows].any():
            self.tainted_accumulators.add(array.name)
        ATOMIC_UFUNCS[statement.op].at(self.accumulators[array.name], index[rows], data[rows])

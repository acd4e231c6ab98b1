"""Scalar kinds, kaji's promotion rules (NumPy 2 with NEP 50 weak literals) and the input
values the tester draws: every kind's edge values plus random ones."""

import math
from dataclasses import dataclass

import numpy as np

INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOATS = ("float16", "float32", "float64")
KINDS = ("bool",) + INTEGERS + FLOATS
# The input columns of the half-precision run (--half): mostly float16, so that most items
# compute in it, beside float32, narrow integers and bools.
HALF_PRECISION_KINDS = ("float16", "float16", "float16", "float16", "float32", "float32",
                        "int8", "uint8", "int16", "int32", "bool")


@dataclass(frozen=True)
class ScalarType:
    """A kernel value's type; `weak` marks Python literals, which adopt their partner's kind."""
    kind: str
    weak: bool = False


class IllTyped(Exception):
    """kaji rejects the expression by its documented rules (e.g. `float & int`)."""


class LiteralOutOfRange(Exception):
    """Arithmetic between an integer and an integer literal outside its range: a CompileError
    (NumPy 2 raises OverflowError)."""


def is_int(kind):
    return kind in INTEGERS


def is_float(kind):
    return kind in FLOATS


def int_range(kind):
    info = np.iinfo(kind)
    return int(info.min), int(info.max)


def _weak_representative(t):
    return {"bool": False, "float64": 0.0}.get(t.kind, 0)


def promote(a, b):
    """The type of `a op b` before operator-specific adjustments: numpy's own result_type for
    strong operands and for a Python scalar next to a strong one; Python's rules between two
    literals."""
    if a.weak and b.weak:
        if is_float(a.kind) or is_float(b.kind):
            return ScalarType("float64", True)
        if a.kind == "bool" and b.kind == "bool":
            return ScalarType("bool", True)
        return ScalarType("uint64" if "uint64" in (a.kind, b.kind) else "int64", True)
    if a.weak or b.weak:
        weak, strong = (a, b) if a.weak else (b, a)
        return ScalarType(np.result_type(np.dtype(strong.kind), _weak_representative(weak)).name)
    return ScalarType(np.promote_types(a.kind, b.kind).name)


def edge_values(kind):
    if kind == "bool":
        return [False, True]
    if is_int(kind):
        lo, hi = int_range(kind)
        values = {0, 1, 2, 3, 7, lo, hi, lo + 1, hi - 1, hi // 2, (hi >> 4) + 1}
        values |= {-1, -2, -3, -7, lo // 2} if lo < 0 else set()
        return sorted(values)
    info = np.finfo(kind)
    return [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 3.0, 7.0, -8.0, math.nan, math.inf,
            -math.inf, float(info.max), -float(info.max), float(info.smallest_normal),
            float(info.smallest_subnormal), -float(info.smallest_subnormal), 2.0 ** 31,
            -2.0 ** 31, 2.0 ** 63, 2.0 ** 64, 255.5, -128.5, 1e10]


def draw_column(kind, rows, rng):
    """`rows` values of `kind`: every edge value at a random row, the rest random."""
    edges = np.array(edge_values(kind), dtype=np.float64 if is_float(kind) else object)
    values = [_random_value(kind, rng) for _ in range(rows - len(edges))] + list(edges)
    column = np.array(values, dtype=np.float64 if is_float(kind) else object)
    rng.shuffle(column)
    with np.errstate(over="ignore"):
        return column.astype(kind)


def _random_value(kind, rng):
    if kind == "bool":
        return bool(rng.integers(2))
    if is_int(kind):
        lo, hi = int_range(kind)
        if rng.random() < 0.5:
            return int(np.clip(rng.integers(-20, 21), lo, hi))
        return int(rng.integers(lo, hi, endpoint=True, dtype=np.dtype(kind)))
    choice = rng.random()
    if choice < 0.35:
        return float(rng.integers(-20, 21)) / (1, 2, 4)[rng.integers(3)]
    return float(rng.standard_normal() * 10.0 ** rng.uniform(-6, 6 if kind == "float16" else 12))

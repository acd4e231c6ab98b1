"""Expression trees and statement items, and the kernel source they print as."""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    """op: var (value: input column), lit (value: Python bool/int/float), bin (value: the
    operator), cmp (value: tuple of operators, one fewer than children), unary (value: - + ~
    not), boolop (value: and/or), ifexp (children: body, test, orelse), call (value: the
    function as spelt in the kernel)."""
    op: str
    children: tuple = ()
    value: object = None

    def columns(self):
        found = {self.value} if self.op == "var" else set()
        for child in self.children:
            found |= child.columns()
        return found

    def size(self):
        return 1 + sum(child.size() for child in self.children)


def literal_source(value):
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return f"({value})" if value < 0 else str(value)
    if math.isnan(value):
        return "math.nan"
    if math.isinf(value):
        return "math.inf" if value > 0 else "(-math.inf)"
    return f"({value!r})" if math.copysign(1.0, value) < 0 else repr(value)


def source(node, column_name, spell_other=None):
    """Python source of `node`; `column_name(j)` spells input column j's element,
    `spell_other(node)` a node of an op this module does not know (or returns None)."""
    def s(child):
        return source(child, column_name, spell_other)

    if spell_other is not None:
        spelt = spell_other(node)
        if spelt is not None:
            return spelt
    if node.op == "var":
        return column_name(node.value)
    if node.op == "lit":
        return literal_source(node.value)
    if node.op == "bin":
        return f"({s(node.children[0])} {node.value} {s(node.children[1])})"
    if node.op == "cmp":
        text = s(node.children[0])
        for op, child in zip(node.value, node.children[1:]):
            text += f" {op} {s(child)}"
        return f"({text})"
    if node.op == "unary":
        return f"({node.value}{' ' if node.value == 'not' else ''}{s(node.children[0])})"
    if node.op == "boolop":
        return "(" + f" {node.value} ".join(s(child) for child in node.children) + ")"
    if node.op == "ifexp":
        body, test, orelse = node.children
        return f"({s(body)} if {s(test)} else {s(orelse)})"
    return f"{node.value}({', '.join(s(child) for child in node.children)})"


def decides_a_condition(node):
    """Whether a ternary's or an `and`/`or`'s condition in the tree `node` holds no variable,
    one that CPython's compiler may fold (campaign.cpython_decides_a_condition)."""
    if node.op == "ifexp":
        conditions = [node.children[1]]
    elif node.op == "boolop":
        conditions = node.children
    else:
        conditions = []
    return any(not condition.columns() for condition in conditions) or \
        any(decides_a_condition(child) for child in node.children)


@dataclass(frozen=True)
class Item:
    """One checked result: `expr` stores exprs[0]; `ifelse` assigns exprs[0], then exprs[2]
    when exprs[1] holds; `aug` assigns exprs[0] then applies `t op= exprs[1]`; `loop` assigns
    exprs[0] then `t = t op exprs[1]` three times in a for loop."""
    form: str
    exprs: tuple
    op: str = ""

    def columns(self):
        return set().union(*(e.columns() for e in self.exprs))


LOOP_TRIPS = 3


def item_lines(item, target, temp, column_name):
    """The statements computing `item` into `target` (e.g. 'oi[3, i]'), temporaries `temp`."""
    e = [source(expr, column_name) for expr in item.exprs]
    if item.form == "expr":
        return [f"{target} = {e[0]}"]
    if item.form == "ifelse":
        return [f"{temp} = {e[0]}", f"if {e[1]}:", f"    {temp} = {e[2]}", f"{target} = {temp}"]
    if item.form == "aug":
        return [f"{temp} = {e[0]}", f"{temp} {item.op}= {e[1]}", f"{target} = {temp}"]
    return [f"{temp} = {e[0]}", f"for _ in range({LOOP_TRIPS}):",
            f"    {temp} = {temp} {item.op} {e[1]}", f"{target} = {temp}"]

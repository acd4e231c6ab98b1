"""Shrinks a program that makes a target differ: statements are removed, and compound ones
replaced by their bodies, one at a time, while the difference stays."""

import copy

from .programs import ForRange, If, Rebind, While

BLOCK_FIELDS = ("body", "orelse")


def _blocks(statements):
    """Every statement list in `statements`, outermost first, itself included."""
    yield statements
    for statement in statements:
        for name in BLOCK_FIELDS:
            inner = getattr(statement, name, None)
            if inner:
                yield from _blocks(inner)


def _candidates(program):
    """Programs with one statement removed or one compound statement replaced by its body;
    never the variables' first assignments nor a rebinding, which every later read needs."""
    count = sum(len(block) for block in _blocks(program.body))
    for position in range(program.initial, count):
        for inline in (False, True):
            candidate = copy.deepcopy(program)
            if _edit(candidate.body, position, inline):
                yield candidate


def _edit(statements, position, inline):
    for block in _blocks(statements):
        if position < len(block):
            statement = block[position]
            if not inline:
                if isinstance(statement, Rebind):
                    return False
                del block[position]
                return True
            if isinstance(statement, (If, ForRange, While)):
                block[position:position + 1] = statement.body
                return True
            return False
        position -= len(block)
    return False


def shrink(program, still_differs, attempts=200):
    current = program
    progress = True
    while progress and attempts > 0:
        progress = False
        for candidate in _candidates(current):
            attempts -= 1
            if still_differs(candidate):
                current, progress = candidate, True
                break
            if attempts <= 0:
                break
    return current

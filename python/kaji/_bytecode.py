"""The code object of a function without source text (defined by exec(), ``python -c`` or
the plain REPL) as plain data for the compiler, which translates it back into the function's
syntax tree (frontend/Bytecode.h). ``dis`` decodes the instructions: it is the running
interpreter's own decoder, so opcode numbers, caches and jump offsets of each Python version
never reach the compiler."""

import sys


def code_description(func):
    """`func`'s code as (python_minor, name, filename, firstlineno, argcount, varnames,
    cellvars, consts, instructions, has_exception_table, defaults); see
    python/src/code_object.h."""
    code = func.__code__
    import dis  # only kernels without source text need it: kept off `import kaji`

    jumps = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)
    instructions = []
    for instruction in dis.get_instructions(code):
        # Python 3.10 has no positions and no exception table: the compiler then names the
        # versions it translates (frontend/Bytecode.h), rather than this failing here.
        positions = getattr(instruction, "positions", None)
        column = positions.col_offset + 1 if positions and positions.col_offset is not None else 0
        instructions.append((
            instruction.offset, instruction.opname, instruction.arg, _argument_text(instruction),
            instruction.argval if instruction.opcode in jumps else -1,
            (positions.lineno or 0) if positions else 0, column))
    # A lambda is named as its source text's translation names it (a PTX symbol has no '<').
    name = "_lambda" if code.co_name == "<lambda>" else code.co_name
    return (sys.version_info.minor, name, code.co_filename, code.co_firstlineno,
            code.co_argcount, code.co_varnames, code.co_cellvars, code.co_consts,
            instructions, bool(getattr(code, "co_exceptiontable", b"")), func.__defaults__ or ())


def _argument_text(instruction):
    """The name or operator `instruction` refers to; for a complex constant, its parts as
    repr() writes floats (exact, where co_consts passes a complex by its type only)."""
    argval = instruction.argval
    if isinstance(argval, str):
        return argval
    if isinstance(argval, complex):
        return f"{argval.real!r} {argval.imag!r}"
    return instruction.argrepr

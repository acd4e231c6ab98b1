"""A Python function's source as the compiler reads it: its dedented text where it sits in its
file, a one-line lambda as a def, or, without source text, its bytecode."""

import functools

from kaji import _core
from kaji._bytecode import code_description

_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08


def check_python_function(func, api="kaji.jit"):
    """TypeError naming `api` and what `func` is unless it is a Python function (a def or a
    lambda): only those have the code and globals the compiler reads. A functools.partial,
    a builtin, a class or a bound method has neither."""
    import inspect

    if not inspect.isfunction(func):
        hint = (": bind the fixed arguments in a def (or pass them as arguments) instead"
                if isinstance(func, functools.partial) else "")
        raise TypeError(f"{api} compiles Python functions (a def or a lambda), not "
                        f"{func!r}{hint}")


def function_source(func):
    """The function's dedented source, where it sits in its file, for the compiler."""
    import inspect

    check_python_function(func)
    code = func.__code__
    if code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS) or code.co_kwonlyargcount:
        raise TypeError(f"kernel '{func.__name__}' must take plain positional parameters "
                        "(no *args, **kwargs or keyword-only parameters)")
    try:
        lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError):
        lines = None
    if not lines or not _defines(lines, func.__name__):
        # No source text (exec(), `python -c`, the REPL): the compiler translates the
        # bytecode (docs/python.md, "Kernels without source text"). So also where the text
        # found is another one under the same made-up file name: CPython 3.13 keeps the
        # `python -c` command as "<string>", which exec() of a string also names its code.
        return _core.FunctionSource.from_code(code_description(func))
    if func.__name__ == "<lambda>":
        return _lambda_source(func, lines, first_line)
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    text = "".join(line[indent:] if line.strip() else "\n" for line in lines)
    return _core.FunctionSource(text, code.co_filename, first_line, indent, func.__name__)


def _defines(lines, name):
    """Whether the source lines found for function `name` are its definition."""
    import re

    keyword = re.compile(r"\blambda\b" if name == "<lambda>" else
                         rf"\bdef\s+{re.escape(name)}\s*\(")
    return any(keyword.search(line) for line in lines)


def parameters(func):
    """The names of the function's positional parameters."""
    code = func.__code__
    return list(code.co_varnames[: code.co_argcount])


def _lambda_source(func, lines, first_line):
    """A one-line lambda (``cuda.reduce(lambda a, b: a + b)``) as the source of a def whose
    return expression maps back onto the lambda body's own line and column, so that
    diagnostics point into the user's line."""
    names = parameters(func)
    line = lines[0].rstrip("\n")
    found = [lambda_node for start in range(len(line)) if line.startswith("lambda", start)
             for lambda_node in [_longest_lambda(line, start, names)] if lambda_node]
    if len(found) != 1:
        # Its text is not one lambda of its own on the line (two lambdas of the same
        # parameters, a lambda over several lines): compiled from its bytecode, as Numba
        # compiles every function, with diagnostics at the code's own lines.
        return _core.FunctionSource.from_code(code_description(func))
    start, body = found[0]
    body_text = line[start:].encode()[body.col_offset:body.end_col_offset].decode()
    column = start + len(line[start:].encode()[:body.col_offset].decode())
    prefix = "    return "
    text = f"def _lambda({', '.join(names)}):\n{prefix}{body_text}\n"
    # The return line is the lambda's line; the column offset moves the body onto its own
    # column (no diagnostic points into the header line).
    return _core.FunctionSource(text, func.__code__.co_filename, first_line - 1,
                                max(0, column - len(prefix)), "_lambda")


def _longest_lambda(line, start, names):
    """(start, body) of the longest text from `start` of `line` that is a lambda whose
    parameters are `names`, or None."""
    import ast

    for end in range(len(line), start, -1):
        try:
            node = ast.parse(line[start:end], mode="eval").body
        except SyntaxError:
            continue
        if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == names:
            return start, node.body
    return None

"""Kernels kaji writes itself (the loops around a user's scalar function that vectorize,
guvectorize and reduce make): their source is Python text that goes through the normal
frontend, under a file name saying what made it; the user's function is a device function
they call, so errors in it point at the user's own file and line."""

import re

from kaji import _core
from kaji._globals import describe_value


def generated_kernel(name, text, names, target, origin):
    """A kaji Dispatcher for the kernel `text` (a ``def name(...)`` at column 0) on `target`.
    `names` maps each name the text uses to its value (the DeviceFunction it calls, a dtype);
    the text may also name the module ``kaji``. `origin` (e.g. "kaji.vectorize of add") is the
    file name errors in the generated text point at."""
    source = _core.FunctionSource(text, f"<{origin}>", 1, 0, name)
    description = {"kaji": ("module", "kaji")}
    for global_name, value in names.items():
        description[global_name] = describe_value(global_name, value)
    parameters = text[text.index("(") + 1:text.index(")")].replace(" ", "").split(",")
    return _core.Dispatcher(source, lambda: description, [p for p in parameters if p],
                            target=target)


def kernel_name(function_name, role):
    """The name of the kernel kaji writes around the function `function_name` for `role`
    ("ufunc" for add: 'add_ufunc'): always an identifier, as the kernel's text is Python, though
    the function's own name may be none (a lambda's is '<lambda>': 'lambda_ufunc')."""
    return f"{re.sub(r'[^0-9A-Za-z_]+', '_', function_name).strip('_') or 'function'}_{role}"


def grid_stride_kernel(name, parameters, count, statements, callees, target, origin):
    """generated_kernel of `def name(parameters)` running the lines `statements` for each `i`
    in range(`count`) (an expression of the parameters) in a grid-stride loop."""
    body = "".join(f"        {statement}\n" for statement in statements)
    text = (f"def {name}({', '.join(parameters)}):\n"
            f"    for i in range(kaji.grid(1), {count}, kaji.gridsize(1)):\n{body}")
    return generated_kernel(name, text, callees, target, origin)


def per_element_kernel(name, parameters, count, statements, callees, target, origin):
    """generated_kernel of `def name(parameters)` in which thread `i` of the grid runs the
    lines `statements` if i < `count` (an expression of the parameters), in blocks of
    ELEMENT_THREADS: on bandwidth-bound elementwise work faster than a grid-stride loop in any
    launch shape measured (bench/results/vectorize_h200_2026-11-29_b99bc4c.md)."""
    body = "".join(f"        {statement}\n" for statement in statements)
    text = (f"def {name}({', '.join(parameters)}):\n"
            f"    i = kaji.grid(1)\n"
            f"    if i < {count}:\n{body}")
    return generated_kernel(name, text, callees, target, origin)


ELEMENT_THREADS = 256


def per_element_launch_shape(count):
    """(blocks, threads) of a per_element_kernel over `count` items."""
    return max(1, -(-count // ELEMENT_THREADS)), ELEMENT_THREADS


def launch_shape(count, threads=128, max_blocks=4096):
    """(blocks, threads) of a grid-stride launch over `count` items."""
    return max(1, min(max_blocks, (count + threads - 1) // threads)), threads

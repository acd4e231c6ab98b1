"""Another spelling of a sibling benchmark's kernel: the same source under a new kernel name,
launched with other arguments. The sibling's text runs in the caller's module, under the caller's
`cuda` (kaji's, or numba's where run.py rewrote the caller's import line), so that one kernel is
written once and measured in each spelling. The renamed text is registered with linecache, so
that the kernel compiles from its source as a user's does (without it kaji would translate the
bytecode of exec'd code)."""

import linecache
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent


def define_renamed(namespace, sibling, name):
    """Runs `sibling`.py in `namespace` (a benchmark module's globals) with its kernel
    `def sibling(` renamed `def name(`; the sibling's `problem` is then in `namespace` too."""
    package = namespace["cuda"].__name__.rpartition(".")[0]
    # The pattern names no package, so that run.py's rewrite of import lines leaves it alone.
    text = re.sub(r"^from \w+ import cuda$", f"from {package} import cuda",
                  (HERE / f"{sibling}.py").read_text(), flags=re.M)
    text = text.replace(f"def {sibling}(", f"def {name}(")
    filename = f"<{sibling}.py as {name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    exec(compile(text, filename, "exec"), namespace)

"""Runs a program in a new Python process from a file, as a user's script is: its kernels have
source text. (Given by `python -c`, the program has none before CPython 3.13, and its kernels
compile from their bytecode, which kaji translates for CPython 3.11 to 3.13 only.)"""

import pathlib
import subprocess
import sys
import tempfile


def run_python_program(program, **subprocess_arguments):
    """subprocess.run of this interpreter on a file holding `program`."""
    with tempfile.TemporaryDirectory() as directory:
        path = pathlib.Path(directory) / "program.py"
        path.write_text(program)
        return subprocess.run([sys.executable, str(path)], **subprocess_arguments)

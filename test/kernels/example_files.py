"""The repository's examples/*.py as modules, for the tests that run their kernels."""

import importlib.util
import pathlib

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def load_example(name):
    """examples/NAME.py, executed as the module example_NAME."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

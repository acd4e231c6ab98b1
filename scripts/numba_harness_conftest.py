"""The conftest of a folder of Numba-CUDA's tests run with kaji (scripts/numba_doc_examples.sh,
scripts/numba_test_suite.py): what numba-cuda's harness needs of its pytest plugin and of
optional packages; and the performance-warning switches the harness sets, which with kaji
standing for numba.cuda are kaji's."""
import importlib.util
import os
import sys

import numpy as np

np.row_stack = np.vstack  # numba-cuda's harness imports numba, which still names it


# numba-cuda's test harness imports the `filecheck` package for its checks of Numba's own LLVM IR
# and PTX, which kaji does not make. Where it is not installed, its modules are written here as
# empty stand-ins, on PYTHONPATH too, so that the processes a test spawns import them as well.
# Each pytest worker runs this: a module is written to a file of the worker's own and renamed
# into place, so that no worker imports one another is writing.
_FILECHECK_MODULES = ("__init__", "matcher", "options", "parser", "finput")
if importlib.util.find_spec("filecheck") is None:
    _standins = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_standins")
    os.makedirs(os.path.join(_standins, "filecheck"), exist_ok=True)
    for _module in _FILECHECK_MODULES:
        _path = os.path.join(_standins, "filecheck", _module + ".py")
        _written = f"{_path}.{os.getpid()}"
        with open(_written, "w") as _file:
            _file.write("def __getattr__(name):\n    return type(name, (), {})\n")
        os.replace(_written, _path)
    sys.path.insert(0, _standins)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [_standins, *filter(None, [os.environ.get("PYTHONPATH")])])


try:
    from numba_tests_conftest import *  # noqa: F401,F403 (numba-cuda's fixtures)
except ImportError:
    pass

if "initialize_from_pytest_config" not in globals():
    import pytest

    @pytest.fixture
    def initialize_from_pytest_config():
        """numba-cuda's CUDATestCase asks for this fixture of its pytest plugin, which sets
        Numba's own options; kaji needs none of them."""
        yield


# numba-cuda's CUDATestCase turns the performance warnings off around each test and
# override_config() sets them, in Numba's config module; kaji reads its own.
_WARNING_SWITCHES = ("CUDA_LOW_OCCUPANCY_WARNINGS", "CUDA_WARN_ON_IMPLICIT_COPY",
                     "DISABLE_PERFORMANCE_WARNINGS")


def _forward_warning_switches():
    try:
        from numba.cuda.core import config as numba_config

        from kaji.cuda import config as kaji_config
    except ImportError:
        return

    class ForwardingConfig(type(numba_config)):
        def __setattr__(self, name, value):
            super().__setattr__(name, value)
            if name in _WARNING_SWITCHES:
                setattr(kaji_config, name, value)

    numba_config.__class__ = ForwardingConfig


_forward_warning_switches()

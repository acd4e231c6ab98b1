"""The conftest of a folder of Numba-CUDA's tests run with kaji (scripts/numba_doc_examples.sh,
scripts/numba_test_suite.py): what numba-cuda's harness needs of its pytest plugin and of
optional packages, and nothing of kaji."""
import importlib.abc
import importlib.machinery
import sys
import types

import numpy as np

np.row_stack = np.vstack  # numba-cuda's harness imports numba, which still names it


class _AbsentFilecheck(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """numba-cuda's test harness imports the `filecheck` package for its checks of Numba's own
    LLVM IR and PTX, which kaji does not make; where it is not installed, its modules are
    empty stand-ins."""

    def find_spec(self, name, path=None, target=None):
        if name != "filecheck" and not name.startswith("filecheck."):
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []
        module.__getattr__ = lambda attribute: type(attribute, (), {})
        return module

    def exec_module(self, module):
        pass


try:
    import filecheck  # noqa: F401
except ImportError:
    sys.meta_path.append(_AbsentFilecheck())

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

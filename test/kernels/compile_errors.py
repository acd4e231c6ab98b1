"""The CompileError of a kernel the compiler must refuse, for the tests of misuse."""

import pytest

import kaji


def compile_error(kernel, signature, cc=(9, 0)):
    """The message of the kaji.CompileError compiling `kernel` for `signature` to PTX for
    compute capability `cc` raises (the test fails where none is raised)."""
    with pytest.raises(kaji.CompileError) as error:
        kaji.compiling.compile_ptx(kernel, signature, cc=cc)
    return str(error.value)

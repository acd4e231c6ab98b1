"""cuda.libdevice and cuda.fp16 list their members from the compiler's tables: attribute
access, dir() and the error for a name neither has (both raised TypeError while the binding
could not convert the list)."""

import pytest

from kaji import cuda


@pytest.mark.parametrize("namespace, member, missing", [
    ("libdevice", "sinf", "sinq"),
    ("fp16", "hadd", "hfoo"),
    ("fp16", "__half_as_short", "__half_as_long"),  # CUDA C++'s spelling of the conversions
    ("bf16", "bfloat16_as_int16", "__half_as_short"),
])
def test_members_come_from_the_compiler(namespace, member, missing):
    table = getattr(cuda, namespace)
    assert member in dir(table)
    assert repr(getattr(table, member)) == f"<kaji intrinsic kaji.{namespace}.{member}>"
    with pytest.raises(AttributeError, match=f"cuda.{namespace} has no function '{missing}'"):
        getattr(table, missing)

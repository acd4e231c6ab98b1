"""Numba's ``numba.cuda.typing``: ``typeof`` (the module) and ``signature``."""

from kaji.cuda.typing import typeof
from kaji.types import Signature as _Signature
from kaji.types import as_type as _as_type


def signature(return_type, *args):
    """``signature(float32, int32, float32)``: the signature ``(int32, float32) -> float32``,
    as Numba's ``numba.cuda.typing.signature``."""
    return _Signature(_as_type(return_type), tuple(_as_type(arg) for arg in args))

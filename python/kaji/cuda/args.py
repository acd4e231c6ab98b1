"""Numba's ``numba.cuda.args``: the transfer hints of kernel arguments, and ``wrap_arg``, which
argument extensions use to give a plain value a default hint."""

from kaji._transfer_hints import In, InOut, Out
from kaji._transfer_hints import _TransferHint as ArgHint

__all__ = ["In", "Out", "InOut", "ArgHint", "wrap_arg"]


def wrap_arg(value, default=InOut):
    """`value` if it carries a hint already, else `default(value)`."""
    return value if isinstance(value, ArgHint) else default(value)

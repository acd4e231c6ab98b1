"""Numba's ``numba.cuda.typing``: only ``typeof`` (the module) is here."""

from kaji.cuda.typing import typeof

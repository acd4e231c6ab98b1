"""Numba's ``numba.cuda.misc``: only ``special`` (literal_unroll) is here."""

from kaji.cuda.misc import special

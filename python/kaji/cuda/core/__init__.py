"""Numba's ``numba.cuda.core``: ``errors`` (Numba's exception and warning names for kaji's
own classes) and ``config`` (``kaji.cuda.config``). Numba's compiler passes, IR and typing
machinery that also live there have no kaji counterpart."""

from kaji.cuda import config
from kaji.cuda.core import errors

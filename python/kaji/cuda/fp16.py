"""``numba.cuda.fp16``'s path: ``cuda.fp16``'s functions (``hadd``, ``__hadd``,
``__float2half_rz``, ...) and the ``float16`` type, importable by name
(``from kaji.cuda.fp16 import hadd``). docs/language.md, "Half precision"."""

from kaji.intrinsics import become_table_module as _become_table_module
from kaji.intrinsics import fp16 as _table
from kaji.types import float16

_become_table_module(__name__, _table)

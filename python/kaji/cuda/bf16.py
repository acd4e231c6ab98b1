"""``numba.cuda.bf16``'s path: ``cuda.bf16``'s functions (``hadd``, ``hsin``,
``int32_to_bfloat16_rz``, ...) and the ``bfloat16`` type, importable by name
(``from kaji.cuda.bf16 import hadd, bfloat16``). docs/language.md, "Half precision"."""

from kaji.intrinsics import bf16 as _table
from kaji.intrinsics import become_table_module as _become_table_module
from kaji.types import bfloat16

_become_table_module(__name__, _table)

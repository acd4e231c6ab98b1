"""``numba.cuda._internal.cuda_bf16``'s path: cuda.bf16's functions under CUDA C++'s names
(``__hadd``, ``__float2bfloat16_rn``, ``htrunc``, ...) and its type ``nv_bfloat16``."""

from kaji.intrinsics import become_table_module as _become_table_module
from kaji.intrinsics import bf16 as _table
from kaji.types import bfloat16 as nv_bfloat16

_become_table_module(__name__, _table, cuda_spelling=True)

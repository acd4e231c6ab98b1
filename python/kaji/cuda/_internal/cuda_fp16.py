"""``numba.cuda._internal.cuda_fp16``'s path: cuda.fp16's functions under CUDA C++'s names
(``__hadd``, ``__float2half_rn``, ``htrunc``, ...) and its type ``__half``."""

from kaji.intrinsics import become_table_module as _become_table_module
from kaji.intrinsics import fp16 as _table
from kaji.types import float16 as __half

_become_table_module(__name__, _table)

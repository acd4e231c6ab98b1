"""Numba's ``numba.cuda.vector_types``: ``vector_types``, every CUDA vector type by its Numba
name (``"float32x4"``), each a kaji.types.Vector (Numba's ``VectorType``) answering
``base_type``, ``num_elements``, ``attr_names``, ``aliases`` and ``user_facing_object`` (the
same object, which builds vectors in kernels); and the types themselves, by Numba's and CUDA
C's names (``float32x4``, ``float4``; kaji/vector_types.py), as on ``kaji.cuda``."""

from kaji.types import _VECTORS
from kaji.types import Vector as VectorType
from kaji.vector_types import *  # noqa: F403 (float32x4, float4, ..., see its __all__)

vector_types = dict(_VECTORS)

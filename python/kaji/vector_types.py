"""CUDA's vector types, as ``numba.cuda`` names them: ``float32x4``, ``int8x2``, ... (lanes of
int8 to uint64, float32 or float64, 1 to 4 of them) and CUDA C's aliases ``float4``, ``char2``,
``uint3``, ``longlong4``, ``double2``, ... (``long`` is 64-bit, as on Linux).

In a kernel, ``float32x4(a, b, c, d)`` builds one from numbers and smaller vectors of the same
lane type (``float32x4(xy, zw)``), and ``.x .y .z .w`` read its lanes. As in Numba they are
values inside kernels and device functions only: no kernel argument is one. They are type
objects too (kaji.types.Vector), standing in device-function signatures,
``float32x4(float32x4, float32)``, and as the dtype of local and shared arrays,
``cuda.local.array(4, dtype=float32x4)``.
"""

from kaji.types import _VECTORS

__all__ = []
for _vector in _VECTORS.values():
    for _name in (_vector.name, *_vector.aliases):
        globals()[_name] = _vector
        __all__.append(_name)
del _vector, _name

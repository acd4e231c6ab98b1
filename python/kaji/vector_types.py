"""CUDA's vector types, as ``numba.cuda`` names them: ``float32x4``, ``int8x2``, ... (lanes of
int8 to uint64, float32 or float64, 1 to 4 of them) and CUDA C's aliases ``float4``, ``char2``,
``uint3``, ``longlong4``, ``double2``, ... (``long`` is 64-bit, as on Linux).

In a kernel, ``float32x4(a, b, c, d)`` builds one from numbers and smaller vectors of the same
lane type (``float32x4(xy, zw)``), and ``.x .y .z .w`` read its lanes. As in Numba they are
values inside kernels and device functions only: no kernel argument is one.
"""

from kaji.intrinsics import Intrinsic

_LANE_TYPES = {
    "int8": ("char",), "int16": ("short",), "int32": ("int",), "int64": ("long", "longlong"),
    "uint8": ("uchar",), "uint16": ("ushort",), "uint32": ("uint",),
    "uint64": ("ulong", "ulonglong"), "float32": ("float",), "float64": ("double",),
}

__all__ = []
for _lane, _aliases in _LANE_TYPES.items():
    for _count in range(1, 5):
        _vector = Intrinsic(f"kaji.{_lane}x{_count}")
        for _name in (f"{_lane}x{_count}", *(f"{alias}{_count}" for alias in _aliases)):
            globals()[_name] = _vector
            __all__.append(_name)
del _lane, _aliases, _count, _vector, _name

"""``numba.cuda._internal.cuda_fp8``'s path: the 8-bit float types and their conversions.

- ``fp8_e4m3``, ``fp8_e5m2``, ``fp8_e8m0``: kaji's ``float8_e4m3fn``, ``float8_e5m2`` and
  ``float8_e8m0fnu`` (CUDA's ``__nv_fp8_*``): ``fp8_e4m3(x)`` converts a number to one,
  ``float32(v)``, ``int64(v)``, ... convert one back (docs/language.md, "8-bit floats");
- ``cvt_float_to_fp8``, ``cvt_double_to_fp8`` (x, saturate, interpretation),
  ``cvt_float_to_e8m0``, ``cvt_double_to_e8m0`` (x, saturate, rounding): kaji.fp8's, giving
  the bits (uint8);
- ``cvt_e8m0_to_bf16raw(bits)``, ``cvt_bfloat16raw_to_fp8(raw, saturate, interpretation)``,
  ``cvt_bfloat16raw_to_e8m0(raw, saturate, rounding)``: on ``bfloat16_raw``, a bfloat16's bits
  in its field ``x`` (uint16), as CUDA's ``__nv_bfloat16_raw``;
- ``saturation_t`` and ``fp8_interpretation_t``: Numba's enums of the modes (the rounding is
  ``cuda.bindings.runtime.cudaRoundMode``'s cudaRoundZero 1 or cudaRoundPosInf 2)."""

from collections import namedtuple
from enum import IntEnum

from kaji.cuda.extending import register_jitable as _register_jitable
from kaji.intrinsics import become_table_module as _become_table_module
from kaji.intrinsics import fp8 as _table
from kaji.intrinsics import libdevice as _libdevice
from kaji.types import float8_e4m3fn as fp8_e4m3
from kaji.types import float8_e5m2 as fp8_e5m2
from kaji.types import float8_e8m0fnu as fp8_e8m0
from kaji.types import int32 as _int32
from kaji.types import uint16 as _uint16


class saturation_t(IntEnum):  # noqa: N801 (Numba's name)
    NOSAT = 0
    SATFINITE = 1


class fp8_interpretation_t(IntEnum):  # noqa: N801 (Numba's name)
    E4M3 = 0
    E5M2 = 1


bfloat16_raw = namedtuple("bfloat16_raw", ["x"])


@_register_jitable
def cvt_e8m0_to_bf16raw(bits):
    """The bfloat16 (its bits) of an e8m0's `bits`: its exponent field, 2^-127 (a subnormal)
    for 0, NaN for 0xFF."""
    exponent = _uint16(bits)
    raw = _uint16(exponent << 7)
    if exponent == 0:
        raw = _uint16(0x0040)
    if exponent == 0xFF:
        raw = _uint16(0x7FFF)
    return bfloat16_raw(raw)


@_register_jitable
def _bf16raw_as_float32(raw):
    return _libdevice.int_as_float(_int32(raw.x) << 16)


@_register_jitable
def cvt_bfloat16raw_to_fp8(raw, saturate, interpretation):
    return _table.cvt_float_to_fp8(_bf16raw_as_float32(raw), saturate, interpretation)


@_register_jitable
def cvt_bfloat16raw_to_e8m0(raw, saturate, rounding):
    return _table.cvt_float_to_e8m0(_bf16raw_as_float32(raw), saturate, rounding)


_become_table_module(__name__, _table)

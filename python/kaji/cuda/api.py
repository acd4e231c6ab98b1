"""Numba's ``numba.cuda.api``: the host API, which ``kaji.cuda`` has itself (``to_device``,
``device_array``, ``stream``, ``is_fp8_supported``, ...)."""

from kaji._shared_api import *  # noqa: F403 (kaji.cuda's host API, as numba.cuda.api's)

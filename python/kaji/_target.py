"""Where kernels run: the "cuda" target (a GPU) or the "cpu" target (this process's CPU).

``@kaji.jit(target=...)`` names one; without it a kernel gets the default target: ``cuda`` when
a usable GPU is present and ``cpu`` otherwise, or what the environment variable KAJI_TARGET
says. Falling back to the CPU is announced once per process with a TargetFallbackWarning.
"""

import functools
import os
import sys
import warnings

from kaji import _core

TARGETS = ("cpu", "cuda")


class TargetFallbackWarning(UserWarning):
    """No usable GPU was found, so kernels that name no target run on the CPU."""


_fallback_announced = False


@functools.lru_cache(maxsize=None)
def gpu_usable():
    """Whether a CUDA driver and at least one device are usable (asked once)."""
    return _core.is_available() and _core.device_count() > 0


def check_target(target):
    """`target` when it names a target; ValueError otherwise."""
    if target not in TARGETS:
        raise ValueError(f"target must be 'cpu' or 'cuda', not {target!r}")
    return target


def default_target():
    """The target of kernels and arrays that name none: KAJI_TARGET, else cuda when a GPU is
    usable, else cpu."""
    override = os.environ.get("KAJI_TARGET")
    if override is not None:
        if override not in TARGETS:
            raise ValueError(f"KAJI_TARGET={override!r}: expected 'cpu' or 'cuda'")
        return override
    if gpu_usable():
        return "cuda"
    global _fallback_announced
    if not _fallback_announced:
        _fallback_announced = True
        reason = _core.unavailable_reason() or "no CUDA device"
        warnings.warn(f"kaji: no usable GPU ({reason}); kernels run on the CPU "
                      "(set KAJI_TARGET=cpu to choose it and silence this)",
                      TargetFallbackWarning, stacklevel=_user_stacklevel())
    return "cpu"


def _user_stacklevel():
    """The warnings stacklevel of the first caller outside the kaji package, so that the
    notice points at the user's line (the decorator or to_device call)."""
    package = os.path.dirname(__file__)
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level

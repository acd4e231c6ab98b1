"""The switches of kaji.PerformanceWarning (python/src/performance_warnings.cpp holds them):
the warning about a cuda launch of too few blocks (Numba's CUDA_LOW_OCCUPANCY_WARNINGS) and
the one about numpy arrays copied to the GPU and back (CUDA_WARN_ON_IMPLICIT_COPY), and
Numba's DISABLE_PERFORMANCE_WARNINGS over both. ``kaji.performance_warnings`` and
``kaji.cuda.config`` set them; the environment sets them when kaji is imported."""

import os

from kaji import _core

# The switches as they were before DISABLE_PERFORMANCE_WARNINGS turned both off (None while
# it is off): Numba keeps each switch's own value under it, and so does kaji.
_before_disabling = None


def performance_warnings(low_occupancy=None, implicit_copy=None):
    """Switches the kinds of PerformanceWarning on or off for the process (None leaves one
    as it is) and returns the settings: Numba's config switches CUDA_LOW_OCCUPANCY_WARNINGS
    and CUDA_WARN_ON_IMPLICIT_COPY. The environment variables KAJI_CUDA_LOW_OCCUPANCY_WARNINGS
    and KAJI_CUDA_WARN_ON_IMPLICIT_COPY (or Numba's NUMBA_ names) set them at import, and
    KAJI_DISABLE_PERFORMANCE_WARNINGS (or NUMBA_DISABLE_PERFORMANCE_WARNINGS) turns both off;
    the standard warnings filters silence them too."""
    return _core.set_performance_warnings(low_occupancy, implicit_copy)


def switches():
    """(low_occupancy, implicit_copy) as Numba's config reads them: each kind's own switch,
    which DISABLE_PERFORMANCE_WARNINGS does not change."""
    return _before_disabling if _before_disabling is not None else performance_warnings()


def set_switch(low_occupancy=None, implicit_copy=None):
    """Sets a kind's own switch; while DISABLE_PERFORMANCE_WARNINGS holds, it takes effect
    when that is lifted."""
    global _before_disabling
    if _before_disabling is None:
        performance_warnings(low_occupancy, implicit_copy)
    else:
        low, copy = _before_disabling
        _before_disabling = (low if low_occupancy is None else bool(low_occupancy),
                             copy if implicit_copy is None else bool(implicit_copy))


def disabled():
    """Whether DISABLE_PERFORMANCE_WARNINGS holds."""
    return _before_disabling is not None


def disable(flag):
    """DISABLE_PERFORMANCE_WARNINGS: True turns both kinds off, False gives each kind its own
    switch back."""
    global _before_disabling
    if flag and _before_disabling is None:
        _before_disabling = performance_warnings()
        performance_warnings(False, False)
    elif not flag and _before_disabling is not None:
        performance_warnings(*_before_disabling)
        _before_disabling = None


def switch_from_environment(*names):
    """True/False from the first of the environment variables `names` that is set ("0" is
    off), None when none is."""
    for name in names:
        value = os.environ.get(name)
        if value is not None:
            return value.strip() not in ("0", "")
    return None


def apply_environment():
    """The switches the environment sets, applied (at ``import kaji``)."""
    performance_warnings(
        switch_from_environment("KAJI_CUDA_LOW_OCCUPANCY_WARNINGS",
                                 "NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS"),
        switch_from_environment("KAJI_CUDA_WARN_ON_IMPLICIT_COPY",
                                 "NUMBA_CUDA_WARN_ON_IMPLICIT_COPY"))
    if switch_from_environment("KAJI_DISABLE_PERFORMANCE_WARNINGS",
                                "NUMBA_DISABLE_PERFORMANCE_WARNINGS"):
        disable(True)

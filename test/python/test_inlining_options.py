"""inline= and forceinline= of @kaji.jit: the values Numba takes, and a clear error for the
others (kaji has no cost-model functions)."""

import pytest

import kaji


@pytest.mark.parametrize("options, message", [
    (dict(inline="sometimes"), "inline must be 'always', 'never', True or False"),
    (dict(inline=lambda *args: True), "cost-model function"),
    (dict(forceinline="yes"), "forceinline must be True or False"),
])
def test_bad_inlining_options(options, message):
    with pytest.raises(ValueError, match=message):
        kaji.jit(device=True, **options)(lambda v: v)

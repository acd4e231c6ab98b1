"""Device ids given to select_device and get_device: an id that is no int is a TypeError, one
beyond a C int a ValueError naming it, both before any driver is asked (so on any machine)."""

import pytest

import kaji
from kaji import _core


@pytest.mark.parametrize("select", [kaji.select_device, _core.select_device, _core.get_device])
@pytest.mark.parametrize("device_id", [2**64, -2**64, 2**31, -2**31 - 1])
def test_a_device_id_beyond_an_int_is_a_value_error_naming_it(select, device_id):
    with pytest.raises(ValueError, match=rf"device id {device_id} is out of range \(-2\*\*31"):
        select(device_id)


@pytest.mark.parametrize("select", [kaji.select_device, _core.select_device, _core.get_device])
@pytest.mark.parametrize("device_id", [1.5, "0", None])
def test_a_device_id_that_is_no_int_is_a_type_error_naming_it(select, device_id):
    with pytest.raises(TypeError, match=f"device id must be an int, not '{type(device_id).__name__}'"):
        select(device_id)

"""Pickling kernels, device functions, configured launches and device arrays (pickle and
cloudpickle): kernels travel as source, globals description, options and eager signatures and
compile where they are unpickled. No GPU needed (cpu target)."""

import pathlib
import pickle
import subprocess
import sys
import threading

import cloudpickle
import numpy as np
import pytest

import kaji

SCALE = 3.0


@kaji.jit(device=True)
def scaled(value):
    return value * SCALE


def scale_and_add(out, x, y):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = scaled(x[i]) + y[i]


kernel = kaji.jit(target="cpu")(scale_and_add)

PICKLERS = [pytest.param(pickle, id="pickle"), pytest.param(cloudpickle, id="cloudpickle")]


def run(launch, n=100):
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    launch(out, x, y)
    np.testing.assert_allclose(out, x * np.float32(SCALE) + y)


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_kernel_comes_back_uncompiled_and_compiles_on_first_launch(pickler):
    run(kernel[4, 32])
    assert kernel.signatures
    copy = pickler.loads(pickler.dumps(kernel))
    assert copy is not kernel
    assert copy.signatures == []
    assert (copy.__name__, copy.__qualname__, copy.target) == ("scale_and_add", "scale_and_add",
                                                               "cpu")
    assert copy.py_func is None
    run(copy[4, 32])
    assert copy.signatures == kernel.signatures


@pytest.mark.parametrize("pickler", PICKLERS)
def test_eager_signatures_and_options_travel(pickler):
    eager = kaji.jit("void(float32[::1], float32[::1], float32[::1])", target="cpu",
                     boundscheck=False, fastmath=True)(scale_and_add)
    copy = pickler.loads(pickler.dumps(eager))
    assert copy.signatures == eager.signatures
    assert copy._options == eager._options
    with pytest.raises(TypeError):  # only the eager signature launches, as before pickling
        copy[1, 1](np.zeros(1), np.zeros(1), np.zeros(1))
    run(copy[4, 32])


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_device_function_pickles_and_is_called_from_a_new_kernel(pickler):
    device_copy = pickler.loads(pickler.dumps(scaled))
    assert isinstance(device_copy, kaji.DeviceFunction)
    assert device_copy.__name__ == "scaled"
    with pytest.raises(TypeError, match="can only be called from a kaji kernel"):
        device_copy(1.0)


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_device_function_keeps_its_signatures(pickler):
    typed = kaji.jit("float32(float32)", device=True)(scaled.py_func)
    assert pickler.loads(pickler.dumps(typed))._signatures == typed._signatures != ()


def make_closure_kernel(offset):
    def add_offset(out, x, y):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = x[i] * SCALE + y[i] + offset

    return kaji.jit(target="cpu")(add_offset)


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_kernel_closing_over_a_constant_pickles_with_its_value(pickler):
    copy = pickler.loads(pickler.dumps(make_closure_kernel(0.0)))
    run(copy[4, 32])


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_ufunc_pickles_and_compiles_where_it_lands(pickler):
    @kaji.vectorize(["int64(int64)", "float64(float64)"], target="cpu")
    def doubled(x):
        return x * 2

    values = np.arange(10)
    expected = doubled(values)
    first = pickler.loads(pickler.dumps(doubled))
    del doubled
    np.testing.assert_array_equal(first(values), expected)
    second = pickler.loads(pickler.dumps(first))
    np.testing.assert_array_equal(second(values), expected)
    assert second.__name__ == "doubled" and second.py_func is None
    assert second.types == ["l->l", "d->d"]


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_dynamic_ufunc_pickles_and_reduces_where_it_lands(pickler):
    @kaji.vectorize(target="cpu")
    def summed(x, y):
        return x + y

    again = pickler.loads(pickler.dumps(summed))
    np.testing.assert_array_equal(again(np.arange(3), 1), [1, 2, 3])
    assert again.reduce(np.arange(5.0)) == 10.0


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_generalized_ufunc_pickles_and_compiles_where_it_lands(pickler):
    @kaji.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)", target="cpu")
    def shifted(row, by, out):
        for i in range(row.shape[0]):
            out[i] = row[i] + by

    rows = np.arange(6.0).reshape(2, 3)
    again = pickler.loads(pickler.dumps(pickler.loads(pickler.dumps(shifted))))
    np.testing.assert_array_equal(again(rows, 1.5), rows + 1.5)
    assert again.signature == "(n),()->(n)" and again.py_func is None
    assert again.__name__ == "shifted"


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_configured_launch_pickles(pickler):
    launch = pickler.loads(pickler.dumps(kernel[4, 32]))
    assert isinstance(launch, kaji._core.ConfiguredLaunch)
    run(launch)


def test_a_configured_launch_on_a_stream_does_not_pickle():
    launch = kernel[4, 32, kaji.default_stream()] if kaji.is_available() else None
    if launch is None:
        pytest.skip("streams need a CUDA driver")
    with pytest.raises(TypeError, match="Stream"):
        pickle.dumps(launch)


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_device_array_pickles_as_its_host_data(pickler, monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cpu")
    host = np.arange(12, dtype=np.int32).reshape(3, 4)
    copy = pickler.loads(pickler.dumps(kaji.to_device(host)))
    assert isinstance(copy, kaji.DeviceArray)
    assert copy.on_host
    np.testing.assert_array_equal(copy.copy_to_host(), host)


LOCK = threading.Lock()


def names_a_lock(out):
    i = kaji.grid(1)
    out[i] = LOCK


@pytest.mark.parametrize("pickler", PICKLERS)
def test_globals_a_kernel_cannot_use_are_not_pickled_and_still_reported_where_it_compiles(
        pickler):
    with pytest.raises(TypeError, match="cannot pickle"):
        pickle.dumps(LOCK)
    copy = pickler.loads(pickler.dumps(kaji.jit(target="cpu")(names_a_lock)))
    with pytest.raises(kaji.CompileError, match="LOCK"):
        copy[1, 1](np.zeros(1))


def test_a_kernel_round_trips_through_another_process(tmp_path):
    """The unpickling process has never imported this module: only the pickle carries the
    kernel."""
    (tmp_path / "kernel.pickle").write_bytes(pickle.dumps(kernel[4, 32]))
    unpickle_and_launch = f"""
import pickle, sys
import numpy as np
launch = pickle.loads(open(sys.argv[1], "rb").read())
assert "test_pickling" not in sys.modules
out = np.zeros(100, dtype=np.float32)
launch(out, np.arange(100, dtype=np.float32), np.full(100, 0.5, dtype=np.float32))
print(float(out.sum()))
"""
    source_package = pathlib.Path(kaji.__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", unpickle_and_launch, str(tmp_path / "kernel.pickle")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={"PYTHONPATH": str(source_package), "KAJI_TARGET": "cpu", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    expected = np.arange(100, dtype=np.float32) * np.float32(SCALE) + np.float32(0.5)
    assert float(result.stdout) == pytest.approx(float(expected.sum()))

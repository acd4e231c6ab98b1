"""Numba's module paths under kaji.cuda (docs/python.md, "Numba's module paths"): each imported
the way Numba's own tests import it, and each object made to do its work: literal_unroll in a
kernel, typeof, as_dtype / from_dtype, the config switches, device arrays under Numba's
names, in-memory code for link=, the vector types, transpose, profiling, is_supported_version.
Without a GPU everything runs on the cpu target; the parts that need one are marked `gpu`."""

import importlib
import importlib.util
import os
import pathlib
import pickle
import re
import stat
import subprocess
import sys
import warnings

import numpy as np
import pytest

import kaji
from kaji import cuda
from toolkit_libraries import NVJITLINK, NVRTC

# The repository's python/ folder (the source package and examples/ beside it), wherever the
# kaji under test is installed.
REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
PACKAGE_ROOT = REPOSITORY / "python"
# Where the kaji under test is (the source package, or an installed one), for subprocesses.
IMPORTED_ROOT = pathlib.Path(kaji.__file__).resolve().parents[1]


def run_python(program, **environment):
    """stdout of `program` run by a fresh interpreter importing this kaji, with `environment`
    added and the NUMBA_/KAJI_ performance-warning variables of this one left out."""
    env = {name: value for name, value in os.environ.items()
           if "PERFORMANCE_WARNINGS" not in name and "OCCUPANCY" not in name
           and "IMPLICIT_COPY" not in name and not name.startswith("NUMBA_")}
    env.update(environment, KAJI_TARGET="cpu",
               PYTHONPATH=str(IMPORTED_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


# --- the paths ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [
    "kaji.cuda.bf16", "kaji.cuda.fp16", "kaji.cuda._internal", "kaji.cuda._internal.cuda_bf16",
    "kaji.cuda._internal.cuda_fp16", "kaji.cuda.compiler", "kaji.cuda.config", "kaji.cuda.core", "kaji.cuda.core.errors", "kaji.cuda.cudadrv",
    "kaji.cuda.cudadrv.devicearray", "kaji.cuda.cudadrv.devices", "kaji.cuda.cudadrv.driver",
    "kaji.cuda.cudadrv.linkable_code", "kaji.cuda.cudadrv.nvrtc", "kaji.cuda.extending",
    "kaji.cuda.kernels", "kaji.cuda.kernels.transpose",
    "kaji.cuda.kernels.reduction", "kaji.cuda.misc", "kaji.cuda.misc.special", "kaji.cuda.np",
    "kaji.cuda.np.numpy_support", "kaji.cuda.typing", "kaji.cuda.typing.typeof",
    "kaji.cuda.vector_types"])
def test_each_path_is_a_module_also_reached_as_an_attribute(path):
    module = importlib.import_module(path)
    assert module.__name__ == path
    parent, _, name = path.rpartition(".")
    assert getattr(importlib.import_module(parent), name) is module


def test_attribute_chains_work_without_importing_the_submodules():
    program = ("from kaji import cuda\n"
               "import kaji, sys\n"
               "assert 'kaji.cuda.cudadrv' not in sys.modules\n"
               "assert cuda.cudadrv.devicearray.DeviceNDArray is kaji.DeviceArray\n"
               "assert cuda.np.numpy_support.from_dtype('f4') is kaji.float32\n"
               "print(cuda.config.CUDA_WARN_ON_IMPLICIT_COPY)\n")
    assert run_python(program)[0].strip() == "1"


def test_the_paths_hold_kajis_own_objects():
    from kaji.cuda.cudadrv.devicearray import DeviceNDArray
    from kaji.cuda.cudadrv.linkable_code import CUSource
    from kaji.cuda.kernels.reduction import Reduce
    from kaji.cuda.kernels.transpose import transpose
    from kaji.cuda.misc.special import literal_unroll
    from kaji.cuda.np.numpy_support import from_dtype
    from kaji.cuda.typing.typeof import typeof

    assert DeviceNDArray is kaji.DeviceArray
    assert CUSource is cuda.CUSource
    assert Reduce is cuda.Reduce
    assert transpose is kaji.kernels.transpose
    assert literal_unroll is kaji.literal_unroll is cuda.literal_unroll
    assert from_dtype is kaji.from_dtype
    assert typeof is kaji.typeof


def test_star_import_binds_no_submodule_names():
    import kaji.cuda.np  # noqa: F401 (now an attribute of kaji.cuda)
    import kaji.cuda.typing  # noqa: F401

    namespace = {}
    exec("from kaji.cuda import *", namespace)
    assert "np" not in namespace and "typing" not in namespace and "config" not in namespace
    assert namespace["jit"] is kaji.jit and namespace["CUSource"] is cuda.CUSource


def test_the_wheel_takes_the_subpackages(monkeypatch):
    # pyproject.toml's wheel.packages = ["python/kaji"]: scikit-build-core copies the folder
    # with every file git does not ignore, subfolders included. (Its walk runs from the root.)
    pathutil = pytest.importorskip("scikit_build_core.build._pathutil")
    if not hasattr(pathutil, "iter_package_files"):
        pytest.skip("this scikit-build-core names its package walk otherwise")
    monkeypatch.chdir(PACKAGE_ROOT.parent)
    files = {str(target) for _, target in pathutil.iter_package_files(
        packages={"kaji": "python/kaji"}, include=[], src_exclude=[], target_exclude=[],
        build_dir="build-wheel", mode="default")}
    source = PACKAGE_ROOT / "kaji"
    expected = {str(pathlib.Path("kaji") / path.relative_to(source))
                for path in (source / "cuda").rglob("*.py")}
    assert len(expected) >= 14
    assert expected <= files


# --- core.errors, core.config, HAS_NUMBA --------------------------------------------------------

from kaji.cuda.core.errors import (LoweringError, NumbaInvalidConfigWarning,  # noqa: E402
                                   NumbaPerformanceWarning, TypingError)


def test_numbas_error_names_catch_kajis_compile_errors():
    def unknown_name(out):
        out[0] = missing  # noqa: F821

    with pytest.raises(TypingError, match="missing"):
        kaji.jit("void(float64[:])", target="cpu")(unknown_name)
    assert TypingError is LoweringError is kaji.CompileError


def test_from_numba_import_errors_reaches_the_same_names():
    from kaji import errors

    assert errors.TypingError is TypingError and errors.__all__ == core_errors_names()


def core_errors_names():
    import kaji.cuda.core.errors

    return kaji.cuda.core.errors.__all__


def test_where_numba_is_loaded_compile_errors_are_its_typing_errors_too(monkeypatch):
    import types as python_types

    class NumbaError(Exception):  # Numba's signature: (msg, loc=None, highlighting=True)
        def __init__(self, msg, loc=None, highlighting=True):
            super().__init__(f"highlighted {msg}")

    class NumbaTypingError(NumbaError):
        pass

    def unknown_name(out):
        out[0] = missing  # noqa: F821

    monkeypatch.delitem(sys.modules, "numba.core.errors", raising=False)
    with pytest.raises(kaji.CompileError) as plain:
        kaji.jit("void(float64[:])", target="cpu")(unknown_name)
    assert type(plain.value) is kaji.CompileError  # without Numba loaded
    numba_errors = python_types.ModuleType("numba.core.errors")
    numba_errors.TypingError = NumbaTypingError
    monkeypatch.setitem(sys.modules, "numba.core.errors", numba_errors)
    with pytest.raises(NumbaTypingError) as caught:
        kaji.jit("void(float64[:])", target="cpu")(unknown_name)
    error = caught.value
    assert isinstance(error, kaji.CompileError) and isinstance(error, TypingError)
    assert str(error).startswith(error.filename) and "name 'missing' is not defined" in str(error)
    assert error.msg == "name 'missing' is not defined" and error.lineno > 0
    with pytest.raises(NumbaTypingError) as again:
        kaji.jit("void(float64[:])", target="cpu")(unknown_name)
    assert type(again.value) is type(error)  # one class per Numba class


def test_numbas_warning_names_are_kajis_warnings():
    with pytest.warns(NumbaInvalidConfigWarning, match="debug=True with opt=True"):
        kaji.jit(debug=True, opt=True)(lambda out: None)
    assert NumbaPerformanceWarning is kaji.PerformanceWarning


def test_core_config_is_kajis_config_and_has_numba_says_whether_numba_is_installed():
    from kaji.cuda.core import config

    assert config is cuda.config
    assert cuda.HAS_NUMBA == (importlib.util.find_spec("numba") is not None)


# --- misc.special.literal_unroll ----------------------------------------------------------------

from kaji.cuda.misc.special import literal_unroll  # noqa: E402 (as Numba's tests import it)


def unrolled(out):
    i = 0
    for value in literal_unroll((7, 7.5, np.int8(7), True)):
        out[i] = value // 2
        i += 1


def test_literal_unroll_loops_over_a_tuple_of_mixed_types_in_a_kernel():
    out = np.zeros(4)
    cuda.jit(target="cpu")(unrolled)[1, 1](out)
    np.testing.assert_array_equal(out, [7 // 2, 7.5 // 2, np.int8(7) // 2, True // 2])
    assert literal_unroll((1, 2.0)) == (1, 2.0)  # in Python, the tuple itself


# --- typing.typeof ---------------------------------------------------------------------------


def test_typeof_of_arrays_and_scalars(device):
    from kaji.cuda.typing.typeof import typeof

    assert str(typeof(np.zeros((2, 3), np.float32))) == "array(float32, 2d, C)"
    assert str(typeof(np.zeros((2, 3), order="F"))) == "array(float64, 2d, F)"
    assert str(typeof(np.zeros((4, 4), np.int16)[:, ::2])) == "array(int16, 2d, A)"
    assert typeof(np.zeros(3, np.complex64)) == kaji.complex64[::1]
    assert typeof(kaji.to_device(np.zeros(3, np.uint8))) == kaji.uint8[::1]
    assert typeof(1) is kaji.int64 and typeof(1.5) is kaji.float64
    assert typeof(True) is kaji.boolean and typeof(np.int8(3)) is kaji.int8
    assert typeof(np.float32(3)) is kaji.float32 and typeof(2j) is kaji.complex128
    assert str(typeof((1, 2.0))) == "Tuple(int64, float64)"
    record = np.zeros(1, np.dtype([("x", np.float32), ("n", np.int32)]))[0]
    assert typeof(record).dtype == record.dtype


# --- np.numpy_support ------------------------------------------------------------------------

SCALAR_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                 np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", SCALAR_DTYPES, ids=lambda t: np.dtype(t).name)
def test_as_dtype_and_from_dtype_round_trip(dtype):
    from kaji.cuda.np import numpy_support

    type_object = numpy_support.from_dtype(np.dtype(dtype))
    assert str(type_object) == ("bool" if dtype is np.bool_ else np.dtype(dtype).name)
    assert numpy_support.as_dtype(type_object) == np.dtype(dtype)
    assert numpy_support.from_dtype(numpy_support.as_dtype(type_object)) is type_object


def test_records_round_trip_and_other_types_have_no_dtype():
    from kaji.cuda.np import numpy_support

    aligned = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.float32, 2)], align=True)
    record = numpy_support.from_dtype(aligned)
    assert isinstance(record, kaji.types.Record)
    assert numpy_support.as_dtype(record) == aligned
    assert numpy_support.as_dtype(np.float32) == np.dtype(np.float32)
    for no_dtype in (kaji.float32[:], cuda.float32x4, kaji.void, kaji.float32(kaji.int32)):
        with pytest.raises(NotImplementedError, match="cannot be represented as a NumPy dtype"):
            numpy_support.as_dtype(no_dtype)
    with pytest.raises(TypeError):
        numpy_support.from_dtype(np.dtype("datetime64[s]"))
    assert numpy_support.numpy_version == tuple(int(p) for p in np.__version__.split(".")[:2])


# --- config --------------------------------------------------------------------------------


@pytest.fixture
def restored_switches():
    from kaji.cuda import config

    before = (config.CUDA_LOW_OCCUPANCY_WARNINGS, config.CUDA_WARN_ON_IMPLICIT_COPY,
              config.DISABLE_PERFORMANCE_WARNINGS)
    yield config
    config.DISABLE_PERFORMANCE_WARNINGS = 0
    config.CUDA_LOW_OCCUPANCY_WARNINGS, config.CUDA_WARN_ON_IMPLICIT_COPY = before[:2]
    config.DISABLE_PERFORMANCE_WARNINGS = before[2]


def test_config_switches_are_kajis_performance_warnings(restored_switches):
    config = restored_switches
    assert cuda.config is config
    config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
    assert kaji.performance_warnings()[0] is False
    config.CUDA_LOW_OCCUPANCY_WARNINGS = 1
    config.CUDA_WARN_ON_IMPLICIT_COPY = 0
    assert kaji.performance_warnings() == (True, False)
    assert config.CUDA_LOW_OCCUPANCY_WARNINGS == 1 and config.CUDA_WARN_ON_IMPLICIT_COPY == 0
    kaji.performance_warnings(low_occupancy=False)  # kaji's own spelling, read by config
    assert config.CUDA_LOW_OCCUPANCY_WARNINGS == 0


def test_disable_performance_warnings_keeps_each_switch_for_later(restored_switches):
    config = restored_switches
    config.CUDA_LOW_OCCUPANCY_WARNINGS, config.CUDA_WARN_ON_IMPLICIT_COPY = 0, 1
    config.DISABLE_PERFORMANCE_WARNINGS = 1
    assert kaji.performance_warnings() == (False, False)
    assert config.DISABLE_PERFORMANCE_WARNINGS == 1
    assert (config.CUDA_LOW_OCCUPANCY_WARNINGS, config.CUDA_WARN_ON_IMPLICIT_COPY) == (0, 1)
    config.CUDA_LOW_OCCUPANCY_WARNINGS = 1  # while disabled: for later
    assert kaji.performance_warnings() == (False, False)
    config.DISABLE_PERFORMANCE_WARNINGS = 0
    assert kaji.performance_warnings() == (True, True)


def test_config_starts_from_numbas_environment_variables():
    program = ("import kaji\nfrom kaji.cuda import config\n"
               "print(kaji.performance_warnings(), config.DISABLE_PERFORMANCE_WARNINGS,\n"
               "      config.CUDA_LOW_OCCUPANCY_WARNINGS, config.CUDA_WARN_ON_IMPLICIT_COPY)\n"
               "config.DISABLE_PERFORMANCE_WARNINGS = 0\nprint(kaji.performance_warnings())\n")
    out, _ = run_python(program, NUMBA_DISABLE_PERFORMANCE_WARNINGS="1",
                        NUMBA_CUDA_WARN_ON_IMPLICIT_COPY="0")
    assert out.split("\n")[:2] == ["(False, False) 1 1 0", "(True, False)"]
    out, _ = run_python(program)
    assert out.split("\n")[0] == "(True, True) 0 1 1"


class _ExportedOnStream:
    """Another library's array whose pending writes are queued on `stream` (no GPU needed:
    nothing reads it)."""

    def __init__(self, stream):
        self.__cuda_array_interface__ = {"shape": (10,), "typestr": "<f4", "version": 3,
                                         "data": (0x10000, False), "stream": stream}


@pytest.fixture
def restored_array_interface_sync():
    from kaji.cuda import config

    yield config
    config.CUDA_ARRAY_INTERFACE_SYNC = 1


def test_array_interface_sync_decides_whether_imports_synchronize(restored_array_interface_sync):
    from unittest.mock import patch

    config = restored_array_interface_sync
    assert config.CUDA_ARRAY_INTERFACE_SYNC == 1
    for setting, calls in ((1, 1), (0, 0)):
        config.CUDA_ARRAY_INTERFACE_SYNC = setting
        assert config.CUDA_ARRAY_INTERFACE_SYNC == setting
        with patch.object(cuda.cudadrv.driver.Stream, "synchronize", return_value=None) as sync:
            cuda.as_cuda_array(_ExportedOnStream(12345))
            cuda.as_cuda_array(_ExportedOnStream(12345), sync=False)
        assert sync.call_count == calls


def test_masked_arrays_are_not_implemented():
    exported = _ExportedOnStream(None)
    exported.__cuda_array_interface__["mask"] = _ExportedOnStream(None)
    with pytest.raises(NotImplementedError, match="Masked arrays are not supported"):
        cuda.from_cuda_array_interface(exported.__cuda_array_interface__)


def test_array_interface_sync_starts_from_numbas_environment_variable():
    program = "from kaji.cuda import config\nprint(config.CUDA_ARRAY_INTERFACE_SYNC)"
    for variable in ("NUMBA_CUDA_ARRAY_INTERFACE_SYNC", "KAJI_CUDA_ARRAY_INTERFACE_SYNC"):
        out, err = run_python(program, **{variable: "0"})
        assert out.strip() == "0" and "does not honour" not in err
    assert run_python(program)[0].strip() == "1"


@pytest.fixture
def restored_jit_defaults():
    from kaji.cuda import config

    yield config
    config.CUDA_DEBUGINFO_DEFAULT = 0
    config.OPT = 3


def test_debuginfo_default_and_opt_are_what_jit_defaults_to(restored_jit_defaults):
    config = restored_jit_defaults
    assert (config.CUDA_DEBUGINFO_DEFAULT, config.OPT) == (0, 3)
    assert repr(config.OPT) == "_OptLevel(3)" and not config.OPT.is_opt_max
    config.CUDA_DEBUGINFO_DEFAULT = 1
    config.OPT = config._OptLevel(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # debug without optimisation: nothing to say
        assert cuda.jit(target="cuda")(lambda a: None).targetoptions["debug"]
        assert cuda.jit(opt=False, target="cuda")(lambda a: None).targetoptions["debug"]
    for level in (1, 2, 3, "max"):
        config.OPT = config._OptLevel(level)
        assert config.OPT == (3 if level == "max" else level)
        assert config.OPT.is_opt_max == (level == "max")
        with pytest.warns(kaji.InvalidConfigWarning, match="not supported by CUDA"):
            cuda.jit()
    config.CUDA_DEBUGINFO_DEFAULT = 0
    assert not cuda.jit(target="cuda")(lambda a: None).targetoptions["debug"]
    with pytest.raises(ValueError, match="0, 1, 2, 3 or 'max', not 7"):
        config.OPT = 7


def test_debuginfo_default_and_opt_start_from_numbas_environment_variables():
    program = ("from kaji.cuda import config\n"
               "print(config.CUDA_DEBUGINFO_DEFAULT, repr(config.OPT))")
    assert run_python(program, NUMBA_CUDA_DEBUGINFO="1", NUMBA_OPT="0")[0].strip() == \
        "1 _OptLevel(0)"
    assert run_python(program, KAJI_OPT="max")[0].strip() == "0 _OptLevel('max')"
    out, err = run_python(program, NUMBA_OPT="fast")
    assert out.strip() == "0 _OptLevel(3)" and "'fast' of KAJI_OPT/NUMBA_OPT" in err


def test_settings_kaji_does_not_honour_say_so_and_keep_kajis_value():
    from kaji.cuda import config

    facts = {"ENABLE_CUDASIM": 0, "DISABLE_JIT": 0, "CUDA_PER_THREAD_DEFAULT_STREAM": 0, "CUDA_DEFAULT_PTX_CC": (9, 0),
             "DEBUGINFO_DEFAULT": 0, "BOUNDSCHECK": None, "CUDA_MEMORY_MANAGER": "default"}
    for name, value in facts.items():
        assert getattr(config, name) == value
        assert name in dir(config)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            setattr(config, name, value)  # kaji's own value: nothing to say
        with pytest.warns(kaji.InvalidConfigWarning, match=f"does not honour Numba's {name}"):
            setattr(config, name, "something else")
        assert getattr(config, name) == value
    with pytest.raises(AttributeError, match="DUMP_IR"):
        config.DUMP_IR


def test_importing_config_warns_of_numba_variables_it_ignores():
    out, err = run_python("from kaji.cuda import config\nprint(config.ENABLE_CUDASIM)",
                          NUMBA_ENABLE_CUDASIM="1", NUMBA_CUDA_DEFAULT_PTX_CC="9.0")
    assert out.strip() == "0"
    assert "does not honour NUMBA_ENABLE_CUDASIM='1'" in err
    assert "NUMBA_CUDA_DEFAULT_PTX_CC" not in err  # asks for what kaji does


@pytest.mark.gpu
def test_config_switch_silences_the_low_occupancy_warning(restored_switches):
    config = restored_switches

    @cuda.jit(target="cuda")
    def fill(out):
        out[cuda.grid(1)] = 1.0

    out = cuda.device_array(32)
    config.CUDA_LOW_OCCUPANCY_WARNINGS = 1
    with pytest.warns(kaji.PerformanceWarning, match="low occupancy"):
        fill[1, 32](out)
    config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fill[1, 32](out)


# --- cudadrv.devicearray -------------------------------------------------------------------

from kaji.cuda.cudadrv.devicearray import (  # noqa: E402
    DeviceNDArray, DeviceRecord, array_core, auto_device, from_record_like, is_contiguous,
    is_cuda_ndarray, verify_cuda_ndarray_interface)

RECORD = np.dtype([("a", np.int32), ("b", np.float32)], align=True)


def test_kajis_device_arrays_are_device_ndarrays(device):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    for array in (cuda.to_device(host), cuda.device_array((2, 2)), cuda.to_device(host)[1:, ::2],
                  cuda.device_array_like(host)):
        assert isinstance(array, DeviceNDArray)
        assert is_cuda_ndarray(array)
        verify_cuda_ndarray_interface(array)
    assert not isinstance(host, DeviceNDArray) and not is_cuda_ndarray(host)
    with pytest.raises(ValueError, match="device array"):
        verify_cuda_ndarray_interface(host)


def test_device_records(device):
    host = np.zeros(1, RECORD)[0]
    host["a"], host["b"] = 10, 11.0
    record = DeviceRecord(RECORD)
    assert isinstance(record, DeviceRecord) and isinstance(record, DeviceNDArray)
    assert record.shape == () and record.strides == () and record.dtype == RECORD
    record.copy_to_device(host)
    back = np.zeros(1, RECORD)[0]
    record.copy_to_host(back)
    assert back == host
    assert isinstance(from_record_like(host), DeviceRecord)
    assert not isinstance(cuda.device_array(3, RECORD), DeviceRecord)
    assert not isinstance(cuda.device_array((), np.float32), DeviceRecord)
    with pytest.raises(TypeError, match="structured"):
        DeviceRecord(np.float32)
    with pytest.raises(NotImplementedError, match="gpu_data"):
        DeviceRecord(RECORD, gpu_data=object())


def test_auto_device(device):
    host = np.arange(6, dtype=np.int64).reshape(2, 3)
    array, new = auto_device(host)
    assert new and isinstance(array, DeviceNDArray)
    np.testing.assert_array_equal(array.copy_to_host(), host)
    assert auto_device(array) == (array, False)
    record, new = auto_device(np.ones(1, RECORD)[0])
    assert new and isinstance(record, DeviceRecord) and record.copy_to_host()["a"] == 1
    empty, new = auto_device(host, copy=False)
    assert new and empty.shape == host.shape and empty.dtype == host.dtype
    from_list, _ = auto_device([1.5, 2.5])
    np.testing.assert_array_equal(from_list.copy_to_host(), [1.5, 2.5])
    with pytest.raises(ValueError, match="non-contiguous"):
        auto_device(np.zeros((4, 4))[:, ::2])


def test_is_contiguous_agrees_with_the_core_of_the_array(device):
    host = np.zeros((10, 12, 14))
    device_c = cuda.device_array((10, 12), order="C")
    device_f = cuda.device_array((10, 12, 14), order="F")
    broadcast = np.broadcast_to(np.zeros((1, 12)), (10, 12))
    for array in (device_c, device_c.T, device_f, device_f.T, device_c[::2], device_c[:, :1],
                  cuda.device_array(10), host, host[::2], host[:, ::2], host[..., :1],
                  np.asfortranarray(host)[::2, ::2], broadcast, cuda.to_device(host)[1:3]):
        assert is_contiguous(array) == array_core(array).flags["C_CONTIGUOUS"], array.strides
    assert is_contiguous(broadcast) and not is_contiguous(device_f)


@pytest.mark.gpu
def test_auto_device_warns_of_an_implicit_copy_under_the_config_switch(restored_switches):
    config = restored_switches
    host = np.zeros(4)
    with pytest.warns(kaji.PerformanceWarning, match="copy overhead"):
        auto_device(host)
    config.CUDA_WARN_ON_IMPLICIT_COPY = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        auto_device(host)
        config.CUDA_WARN_ON_IMPLICIT_COPY = 1
        auto_device(host, user_explicit=True)


# --- cudadrv.linkable_code ------------------------------------------------------------------

from kaji.cuda.cudadrv.linkable_code import (  # noqa: E402
    LTOIR, Archive, Cubin, CUSource, Fatbin, LinkableCode, Object, PTXSource)

TRIPLE = 'extern "C" __device__ int triple(float *result, float a) { *result = 3 * a; return 0; }'
UNRELATED = 'extern "C" __device__ int unrelated(float *r, float a) { *r = a; return 0; }'
needs_lto = pytest.mark.skipif(not (NVRTC and NVJITLINK), reason="needs NVRTC and nvJitLink")


def test_each_kind_is_written_to_a_private_file_with_its_suffix():
    kinds = {CUSource: ".cu", PTXSource: ".ptx", Cubin: ".cubin", Fatbin: ".fatbin",
             Object: ".o", Archive: ".a", LTOIR: ".ltoir"}
    for kind, suffix in kinds.items():
        code = kind(b"\x7fELF bytes" if suffix not in (".cu", ".ptx") else "text", name="ops")
        path = pathlib.Path(code.link_path())
        assert path.name == "ops" + suffix and code.kind == suffix[1:]
        assert path.read_bytes() == (code.data if isinstance(code.data, bytes)
                                     else code.data.encode())
        assert code.link_path() == str(path)  # written once
        directory = path.parents[1]
        assert directory.name.startswith("kaji-link-")
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    unnamed = CUSource(TRIPLE)
    assert unnamed.name == "<unnamed-cu>" and unnamed.link_path().endswith("/unnamed-cu.cu")
    with pytest.raises(TypeError, match="CUSource"):
        LinkableCode(TRIPLE)
    with pytest.raises(NotImplementedError, match="setup_callback"):
        CUSource(TRIPLE, setup_callback=print)
    with pytest.raises(TypeError, match="str or bytes"):
        CUSource(3)


def test_from_path_or_obj(tmp_path):
    path = tmp_path / "ops.cu"
    path.write_text(TRIPLE)
    code = LinkableCode.from_path_or_obj(str(path))
    assert isinstance(code, CUSource) and code.name == "ops" and code.data == TRIPLE
    assert LinkableCode.from_path_or_obj(code) is code
    with pytest.raises(ValueError, match="Don't know how to link file with extension .txt"):
        LinkableCode.from_path(str(tmp_path / "ops.txt"))


triple = cuda.declare_device("triple", "float32(float32)", link=CUSource(TRIPLE, name="triple"))


def tripled(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = triple(x[i])


def test_link_takes_code_in_memory_and_the_compiler_gets_its_file():
    entry = triple._kaji_describe_global_()
    assert entry[:3] == ("external", "triple", "(float32,) -> float32") and entry[4] == "numba"
    assert entry[3][0].endswith("/triple.cu") and pathlib.Path(entry[3][0]).read_text() == TRIPLE
    source = PTXSource(".version 8.0\n.target sm_90\n.address_size 64\n", name="extra")
    ops = REPOSITORY / "examples" / "cuda_device_function" / "ops.cu"
    kernel = cuda.jit(target="cpu", link=[source, str(ops)])(tripled)
    assert kernel._options.link[0] is source
    from kaji.linking import link_paths

    paths = link_paths(kernel._options.link)
    assert paths[0] == source.link_path() and paths[0].endswith("/extra.ptx")
    assert paths[1].endswith("/ops.cu")


def test_code_in_memory_travels_with_a_pickled_kernel():
    kernel = cuda.jit(target="cpu", link=CUSource(UNRELATED, name="unrelated"))(tripled)
    pickled = pickle.dumps(kernel)
    program = ("import pickle, sys, pathlib\n"
               "kernel = pickle.loads(sys.stdin.buffer.read())\n"
               "from kaji.linking import link_paths\n"
               "own = link_paths(kernel._options.link)[0]\n"
               "declared = kernel._describe_globals()['triple'][3][0]\n"
               "print(own, pathlib.Path(own).read_text() == %r)\n"
               "print(declared, pathlib.Path(declared).read_text() == %r)\n"
               % (UNRELATED, TRIPLE))
    env = {**os.environ, "KAJI_TARGET": "cpu",
           "PYTHONPATH": f"{IMPORTED_ROOT}{os.pathsep}{pathlib.Path(__file__).parent}"}
    result = subprocess.run([sys.executable, "-c", program], input=pickled, env=env,
                            capture_output=True)
    assert result.returncode == 0, result.stderr.decode()
    lines = result.stdout.decode().split("\n")
    assert lines[0].endswith("/unrelated.cu True") and lines[1].endswith("/triple.cu True")
    # The child wrote its own files and removed them when it exited.
    assert not os.path.exists(lines[0].split()[0])
    assert kernel._options.link[0].link_path() != lines[0].split()[0]


@needs_lto
def test_code_in_memory_links_into_the_kernels_cubin():
    # With LTO-IR among the inputs nvJitLink links on the CPU: the CUSource is compiled by
    # NVRTC from its written-out file, the LTOIR read from its own, and `triple` resolves.
    from kaji.linking import link_paths

    kernel = cuda.jit(target="cpu")(tripled)
    ptx = kaji._core.compile(kernel._source, kernel._describe_globals,
                             "void(float32[:], float32[:])", stage="ptx")
    entry = re.search(r"\.entry\s+(\w+)", ptx).group(1)
    unrelated = LTOIR(kaji._core.compile_cuda_source(UNRELATED, "unrelated.cu", lto=True),
                      name="unrelated")
    cubin = kaji._core.link_kernel(ptx, "tripled", "sm_90",
                                   link_paths([unrelated, *triple.link]))
    assert cubin[:4] == b"\x7fELF" and entry.encode() in cubin
    with pytest.raises(kaji.LinkError, match=r"(?s)unrelated\.ltoir.*reference to 'triple'"):
        kaji._core.link_kernel(ptx, "tripled", "sm_90", link_paths([unrelated]))


@pytest.mark.gpu
def test_a_kernel_linking_cuda_source_in_memory_runs():
    scale = cuda.declare_device("scale", "float32(float32)")

    @cuda.jit(target="cuda", link=[CUSource(TRIPLE.replace("triple", "scale"), name="scale")])
    def scaled(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = scale(x[i]) + triple(x[i])

    x = np.arange(64, dtype=np.float32)
    out = cuda.device_array_like(x)
    scaled[1, 64](out, cuda.to_device(x))
    np.testing.assert_array_equal(out.copy_to_host(), 6 * x)


@pytest.mark.gpu
def test_nvrtc_errors_name_the_code_in_memory():
    broken = cuda.declare_device("broken", "float32(float32)",
                                 link=CUSource("this is not C++", name="broken_ops"))

    @cuda.jit(target="cuda")
    def calls_broken(out):
        out[0] = broken(out[0])

    with pytest.raises(RuntimeError, match="broken_ops.cu"):
        calls_broken[1, 1](cuda.device_array(1, np.float32))


# --- vector_types ------------------------------------------------------------------------------

from kaji.cuda.vector_types import vector_types  # noqa: E402


def make_vector_kernel(vtype):
    """A kernel building `vtype` from its lane type's values, as Numba's vector tests do."""
    vobj, base_type = vtype.user_facing_object, vtype.base_type

    def kernel(res):
        v = vobj(base_type(0), base_type(1), base_type(2), base_type(3))
        res[0], res[1], res[2], res[3] = v.x, v.y, v.z, v.w

    def kernel2(res):
        v = vobj(base_type(0), base_type(1))
        res[0], res[1] = v.x, v.y

    return cuda.jit(target="cpu")(kernel if vtype.num_elements == 4 else kernel2)


def test_vector_types_answer_numbas_questions():
    assert len(vector_types) == 40
    for name, vtype in vector_types.items():
        assert vtype.name == name and getattr(cuda, name) is vtype
        assert vtype.user_facing_object is vtype
        assert vtype.attr_names == ("x", "y", "z", "w")[:vtype.num_elements]
        assert str(vtype.base_type) == name.rpartition("x")[0]
        for alias in vtype.aliases:
            assert getattr(cuda, alias) is vtype
    assert vector_types["float32x4"].aliases == ("float4",)
    assert vector_types["int64x2"].aliases == ("long2", "longlong2")


@pytest.mark.parametrize("name", ["float32x4", "int8x2", "uint64x4", "float64x2"])
def test_vector_types_build_vectors_in_kernels(name):
    vtype = vector_types[name]
    res = np.zeros(vtype.num_elements)
    make_vector_kernel(vtype)[1, 1](res)
    np.testing.assert_array_equal(res, np.arange(vtype.num_elements))


# --- kernels.transpose -----------------------------------------------------------------------


def test_transpose_module_and_function(ufunc_target, monkeypatch):
    from kaji.cuda.kernels.transpose import transpose

    monkeypatch.setenv("KAJI_TARGET", ufunc_target)
    a = np.arange(70 * 45, dtype=np.float32).reshape(70, 45)
    result = transpose(a)
    assert isinstance(result, DeviceNDArray) and result.on_host == (ufunc_target == "cpu")
    np.testing.assert_array_equal(result.copy_to_host(), a.T)
    into = cuda.device_array((45, 70), np.float32)
    assert cuda.kernels.transpose(cuda.to_device(a), into, stream=0) is into  # the module
    np.testing.assert_array_equal(into.copy_to_host(), a.T)


def test_transpose_of_records(ufunc_target, monkeypatch):
    from kaji.cuda.kernels.transpose import transpose

    monkeypatch.setenv("KAJI_TARGET", ufunc_target)
    record = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
    a = np.zeros((40, 9), dtype=record)
    a["i"] = np.arange(40 * 9).reshape(40, 9)
    a["j"] = np.arange(40 * 9 * 6, dtype=np.float32).reshape(40, 9, 3, 2)
    into = cuda.device_array_like(a.T)
    transpose(cuda.to_device(a), into)
    np.testing.assert_array_equal(into.copy_to_host(), a.T)


@pytest.mark.gpu
def test_transpose_on_a_stream():
    from kaji.cuda.kernels.transpose import transpose

    stream = cuda.stream()
    a = np.random.default_rng(1).random((257, 130))
    result = transpose(cuda.to_device(a, stream=stream), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(result.copy_to_host(), a.T)


# --- profiling, is_supported_version ----------------------------------------------------------


def test_profiling_without_a_gpu_does_nothing(monkeypatch):
    if cuda.is_available():
        pytest.skip("a GPU is usable here: test_profiling_on_a_gpu")
    import ctypes

    def no_driver_call(*args):
        raise AssertionError("no driver call without a usable driver")

    monkeypatch.setattr(ctypes, "CDLL", no_driver_call)
    assert cuda.profile_start() is None and cuda.profile_stop() is None
    with cuda.profiling():
        pass
    assert cuda.is_supported_version() is False


@pytest.mark.gpu
def test_profiling_on_a_gpu():
    # No profiler is attached: the driver accepts the calls and nothing changes.
    cuda.profile_start()
    cuda.profile_stop()
    with cuda.profiling():
        out = cuda.device_array(4)
        cuda.kernels.transpose(cuda.to_device(np.ones((2, 2))))
    assert out.shape == (4,)


def test_is_supported_version_is_a_bool():
    supported = cuda.is_supported_version()
    assert isinstance(supported, bool)
    from kaji._driver_calls import driver_version

    version = driver_version()
    assert supported == (version is not None and version[0] in (12, 13))
    if cuda.is_available():
        assert version is not None and version >= (12, 0)


def test_find_closest_arch_is_what_kaji_compiles_for():
    from kaji.cuda.cudadrv.nvrtc import find_closest_arch

    assert find_closest_arch((9, 0)) == (9, 0)
    assert find_closest_arch((12, 0)) == (9, 0)
    assert find_closest_arch((8, 8)) == (8, 7)
    with pytest.raises(NotImplementedError, match="compute capability 6.0 is not supported"):
        find_closest_arch((6, 0))


def test_nvrtc_names_the_architectures_kaji_compiles_for():
    from kaji.cuda.cudadrv import nvrtc

    assert nvrtc.get_supported_ccs()[0] == nvrtc.get_lowest_supported_cc() == (7, 5)
    assert nvrtc.get_arch_option(7, 7) == "compute_75"
    assert nvrtc.get_arch_option(9, 1) == "compute_90"
    assert nvrtc.get_arch_option(1000, 0) == "compute_%d%d" % nvrtc.get_supported_ccs()[-1]
    assert nvrtc.get_arch_option(9, 0, "a") == "compute_90a"
    with pytest.raises(ValueError, match="Can't use arch-specific compute_990a with compute "
                                         "capability 9.0"):
        nvrtc.get_arch_option(99, 0, "a")
    for cc in nvrtc.get_supported_ccs():
        assert nvrtc.get_arch_option(*cc) == "compute_%d%d" % cc
    with pytest.raises(NotImplementedError, match="6.1 is not supported"):
        nvrtc.get_arch_option(6, 1)


def test_half_precision_modules_hold_the_tables_functions_and_types():
    from kaji.cuda import bf16, fp16
    from kaji.cuda._internal import cuda_bf16, cuda_fp16
    from kaji.cuda.bf16 import bfloat16, hadd, int32_to_bfloat16_rz

    assert cuda.bf16 is bf16 and cuda.fp16 is fp16
    assert bfloat16 is kaji.bfloat16 and cuda_bf16.nv_bfloat16 is kaji.bfloat16
    assert fp16.float16 is kaji.float16 and getattr(cuda_fp16, "__half") is kaji.float16
    assert hadd._kaji_name == "kaji.bf16.hadd"
    assert int32_to_bfloat16_rz._kaji_name == "kaji.bf16.int32_to_bfloat16_rz"
    # CUDA C++'s spellings: __hadd is the table's hadd; htrunc is itself.
    assert getattr(cuda_bf16, "__hadd")._kaji_name == "kaji.bf16.hadd"
    assert getattr(cuda_bf16, "__float2bfloat16_rn")._kaji_name == "kaji.bf16.float2bfloat16_rn"
    assert cuda_bf16.htrunc._kaji_name == "kaji.bf16.htrunc"
    assert getattr(cuda_fp16, "__hadd")._kaji_name == "kaji.fp16.__hadd"
    assert "hadd" in dir(bf16) and "bfloat16" in dir(bf16) and "__hadd" in dir(cuda_bf16)
    with pytest.raises(AttributeError, match="cuda.bf16 has no function 'hnope'"):
        bf16.hnope
    with pytest.raises(ImportError):
        exec("from kaji.cuda.bf16 import hnope", {})


def test_cuda_error_says_why_the_driver_is_unusable():
    error = cuda.cuda_error()
    if cuda.is_available():
        assert error is None
    else:
        assert isinstance(error, str) and error == kaji.unavailable_reason()


def test_where_cuda_core_is_loaded_launch_and_driver_errors_are_its_cuda_errors(monkeypatch):
    import types as python_types

    from kaji._error_classes import error_class

    class CUDAError(Exception):
        pass

    @kaji.jit(target="cpu", launch_bounds=32)
    def bounded(out):
        out[0] = 1

    # Whatever other tests of this process loaded: neither library here at first.
    monkeypatch.delitem(sys.modules, "cuda.core._utils.cuda_utils", raising=False)
    monkeypatch.delitem(sys.modules, "numba.core.errors", raising=False)
    with pytest.raises(kaji.InvalidLaunch) as plain:
        bounded[1, 64](np.zeros(1))
    assert type(plain.value) is kaji.InvalidLaunch and isinstance(plain.value, ValueError)
    assert "CUDA_ERROR_INVALID_VALUE" in str(plain.value)
    cuda_utils = python_types.ModuleType("cuda.core._utils.cuda_utils")
    cuda_utils.CUDAError = CUDAError
    monkeypatch.setitem(sys.modules, "cuda.core._utils.cuda_utils", cuda_utils)
    with pytest.raises(CUDAError, match="block size 64 exceeds the maximum kernel 'bounded''s "
                                        "launch_bounds set of 32.*CUDA_ERROR_INVALID_VALUE"):
        bounded[1, 64](np.zeros(1))
    driver_error = error_class("CudaError")
    assert issubclass(driver_error, kaji.CudaError) and issubclass(driver_error, CUDAError)
    assert error_class("CompileError") is kaji.CompileError  # Numba not loaded


class CUDAError(Exception):
    """A stand-in for cuda.core's CUDAError, at module level so that pickle finds it."""


def test_a_bridged_error_pickles_and_unpickles_as_the_class_to_raise(monkeypatch):
    import pickle
    import types as python_types

    from kaji._error_classes import error_class

    cuda_utils = python_types.ModuleType("cuda.core._utils.cuda_utils")
    cuda_utils.CUDAError = CUDAError
    monkeypatch.setitem(sys.modules, "cuda.core._utils.cuda_utils", cuda_utils)
    error = error_class("CudaError")("cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY")
    error.call = "cuMemAlloc"
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and isinstance(copy, CUDAError)
    assert (str(copy), copy.call) == (str(error), "cuMemAlloc")
    monkeypatch.delitem(sys.modules, "cuda.core._utils.cuda_utils")
    # unpickled where cuda.core is not loaded: kaji's own class
    assert type(pickle.loads(pickle.dumps(error))) is kaji.CudaError

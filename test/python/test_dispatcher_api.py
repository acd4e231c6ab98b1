"""Numba's dispatcher API on kaji kernels: specialize, overloads, the inspect_* family, the
resource queries, the launch_bounds/max_registers/shared_memory_carveout/debug options, and
Numba's launch errors and warnings. Resource queries without a GPU come from ptxas; SASS needs
the toolkit's nvdisasm or cuobjdump."""

import io
import shutil
import warnings

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda import types

_TOOLKIT_BIN = "/usr/local/cuda/bin"
needs_ptxas = pytest.mark.skipif(
    shutil.which("ptxas", path=f"{_TOOLKIT_BIN}:") is None and shutil.which("ptxas") is None,
    reason="no ptxas from the CUDA toolkit")


def _has_disassembler():
    return any(shutil.which(tool, path=f"{_TOOLKIT_BIN}:") or shutil.which(tool)
               for tool in ("nvdisasm", "cuobjdump"))


def _double(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2


def _kernel(**options):
    return cuda.jit(target="cpu", **options)(_double)


F32 = "void(float32[::1], float32[::1])"
F64 = "void(float64[::1], float64[::1])"


def test_specialize_compiles_for_the_argument_types_and_is_cached():
    kernel = _kernel()
    x = np.arange(8, dtype=np.float32)
    out = np.zeros_like(x)
    specialized = kernel.specialize(out, x)
    assert specialized.specialized and not kernel.specialized
    assert specialized.signatures == [F32]
    assert kernel.specialize(out, x) is specialized
    assert kernel.specializations == {F32: specialized}
    specialized[1, 8](out, x)
    np.testing.assert_array_equal(out, x * 2)
    with pytest.raises(TypeError, match="No matching definition for argument type.*has no "
                                        "signature for arguments"):
        specialized[1, 8](out.astype(np.float64), x.astype(np.float64))
    with pytest.raises(RuntimeError, match="already specialized"):
        specialized.specialize(out, x)


def test_specialize_takes_the_argument_types_instead_of_values():
    kernel = _kernel()
    by_types = kernel.specialize(kaji.float32[::1], kaji.float32[::1])
    assert by_types.signatures == [F32]
    x = np.arange(8, dtype=np.float32)
    assert kernel.specialize(np.zeros_like(x), x) is by_types  # one cache for both spellings
    with pytest.raises(TypeError, match="values or their types .* not both"):
        kernel.specialize(kaji.float32[::1], x)


def test_compile_compiles_now_without_restricting_launches():
    kernel = _kernel()
    kernel.compile(F32)
    kernel.compile((kaji.float64[::1], kaji.float64[::1]))
    assert kernel.signatures == [F32, F64]
    x = np.arange(3, dtype=np.int64)  # a type neither names: compiled at the launch
    out = np.zeros_like(x)
    kernel[1, 4](out, x)
    np.testing.assert_array_equal(out, 2 * x)
    with pytest.raises(kaji.CompileError, match="test_dispatcher_api.py"):
        _kernel().compile("void(float32[::1], int32)")  # x.size of an int32


def test_overloads_and_signatures_list_every_compiled_signature():
    kernel = _kernel()
    for dtype in (np.float32, np.float64):
        x = np.ones(4, dtype)
        kernel[1, 4](np.empty_like(x), x)
    assert kernel.signatures == [F32, F64]
    overloads = kernel.overloads
    assert sorted(overloads) == sorted([F32, F64])
    assert ".entry" in overloads[F64].inspect_asm()
    assert overloads[F32].signature == F32


def test_overloads_are_found_by_numbas_key_the_tuple_of_argument_types():
    # Numba-CUDA's documentation (cg example): kernel.overloads[(int32[:, ::1],)].
    kernel = _kernel()
    x = np.ones(4, np.float32)
    kernel[1, 4](np.empty_like(x), x)
    overloads = kernel.overloads
    key = (kaji.float32[::1], kaji.float32[::1])
    assert overloads[key] is not None and overloads[key].signature == F32
    assert key in overloads and overloads.get(key).signature == F32
    assert (kaji.float64[::1], kaji.float64[::1]) not in overloads
    assert overloads.get((kaji.float64[::1], kaji.float64[::1])) is None
    with pytest.raises(KeyError):
        overloads[(kaji.int8[:],)]
    with pytest.raises(KeyError):
        overloads[("not a type",)]


def test_inspect_asm_is_ptx_by_signature_or_for_all():
    kernel = _kernel()
    kernel.add_signature(F32)
    kernel.add_signature(F64)
    every = kernel.inspect_asm()
    assert set(every) == {F32, F64}
    assert every[F64] == kernel.inspect_asm(F64)
    assert ".f64" in every[F64] and ".f64" not in every[F32]
    # Numba's key, the tuple of argument types, finds each too.
    assert every[(kaji.float64[::1], kaji.float64[::1])] == every[F64]


def test_inspect_llvm_and_types_without_a_signature_cover_all():
    kernel = _kernel()
    kernel.add_signature(F32)
    kernel.add_signature(F64)
    assert set(kernel.inspect_llvm()) == {F32, F64}
    printed = io.StringIO()
    kernel.inspect_types(file=printed)
    text = printed.getvalue()
    assert f"_double {F32}" in text and f"_double {F64}" in text
    assert "f64" in text


def _typed_locals(out, x):
    i = cuda.grid(1)
    scratch = cuda.local.array(4, dtype=np.int16)
    pair = (i, x[0])
    twice = (i, i)
    scratch[0] = twice[1]
    out[0] = pair[1] + scratch[0]


def test_variable_types_name_each_variables_type():
    kernel = cuda.jit(target="cpu")(_typed_locals)
    kernel.add_signature(F32)
    typemap = kernel.variable_types(F32)
    assert typemap["out"] == types.float32[::1] and typemap["i"] == types.int64
    assert typemap["scratch"] == types.int16[::1] and typemap["scratch"].dtype == types.int16
    assert typemap["pair"] == types.Tuple((types.int64, types.float32))
    assert typemap["twice"] == types.UniTuple(types.int64, 2)
    assert kernel.variable_types() == {F32: typemap}
    # Numba's tests read it through the overload's type annotation.
    assert kernel.overloads[F32]._type_annotation.typemap == typemap
    printed = io.StringIO()
    kernel.inspect_types(file=printed)
    assert "scratch: int16[::1]\n" in printed.getvalue()
    assert "pair: Tuple(int64, float32)\n" in printed.getvalue()


@needs_ptxas
def test_resource_queries_with_and_without_a_signature():
    kernel = _kernel()
    kernel.add_signature(F32)
    regs = kernel.get_regs_per_thread(F32)
    assert isinstance(regs, int) and 0 < regs <= 255
    assert kernel.get_regs_per_thread() == {F32: regs}
    assert kernel.get_shared_mem_per_block(F32) == 0
    assert kernel.get_local_mem_per_thread() == {F32: 0}
    assert kernel.get_const_mem_size(F32) >= 0
    assert kernel.get_max_threads_per_block(F32) == 1024
    assert kernel.overloads[F32].regs_per_thread == regs
    # One signature given to @jit (not a list) specializes the kernel, as in Numba: the
    # queries then answer without a signature; a list keeps the dict.
    one = kaji.jit(F32, target="cpu")(kernel.py_func)
    assert one.specialized and one.get_regs_per_thread() == regs
    assert one.get_max_threads_per_block() == 1024
    listed = kaji.jit([F32], target="cpu")(kernel.py_func)
    assert not listed.specialized and listed.get_regs_per_thread() == {F32: regs}


@needs_ptxas
def test_shared_memory_is_reported_per_block():
    @cuda.jit(target="cpu")
    def staged(out):
        tile = cuda.shared.array(256, np.float32)
        tile[cuda.threadIdx.x] = 1.0
        cuda.syncthreads()
        out[cuda.threadIdx.x] = tile[255 - cuda.threadIdx.x]

    staged.add_signature("void(float32[::1])")
    assert staged.get_shared_mem_per_block("void(float32[::1])") == 256 * 4


def test_launch_bounds_and_max_registers_reach_the_ptx():
    bounded = _kernel(launch_bounds=(128, 2))
    bounded.add_signature(F32)
    ptx = bounded.inspect_asm(F32)
    assert ".maxntid 128, 1, 1" in ptx and ".minnctapersm 2" in ptx
    capped = _kernel(max_registers=32, launch_bounds=64)
    capped.add_signature(F32)
    ptx = capped.inspect_asm(F32)
    assert ".maxnreg 32" in ptx and ".maxntid 64, 1, 1" in ptx
    assert ".maxntid" not in _inspected_plain()


def _inspected_plain():
    plain = _kernel()
    plain.add_signature(F32)
    return plain.inspect_asm(F32)


@needs_ptxas
def test_launch_bounds_cap_max_threads_per_block():
    bounded = _kernel(launch_bounds=128)
    bounded.add_signature(F32)
    assert bounded.get_max_threads_per_block(F32) == 128


@pytest.mark.parametrize("bounds", [0, -1, (), (1, 2, 3, 4), (128, 0), "128", 1.5, True])
def test_bad_launch_bounds_are_value_errors(bounds):
    with pytest.raises(ValueError, match="launch_bounds"):
        _kernel(launch_bounds=bounds)


def test_too_many_launch_bounds_say_how_many_as_numba():
    with pytest.raises(ValueError, match=r"Got 4 launch bounds: \(128, 2, 4, 8\)"):
        _kernel(launch_bounds=(128, 2, 4, 8))


@pytest.mark.parametrize("count", [0, -4, 2.0, "32"])
def test_bad_max_registers_are_value_errors(count):
    with pytest.raises(ValueError, match="max_registers"):
        _kernel(max_registers=count)


@pytest.mark.parametrize("carveout", ["MaxL1", "maxshared", "default", -1, 0, 50, 100])
def test_shared_memory_carveouts_numba_accepts(carveout):
    _kernel(shared_memory_carveout=carveout).add_signature(F32)


@pytest.mark.parametrize("carveout, error, message", [
    ("Half", ValueError, "Invalid carveout value: Half"),
    (101, ValueError, "Carveout must be between -1 and 100"),
    (-2, ValueError, "Carveout must be between -1 and 100"),
    (1.5, TypeError, "shared_memory_carveout must be a str or an int"),
])
def test_bad_shared_memory_carveouts_fail_as_in_numba(carveout, error, message):
    with pytest.raises(error, match=message):
        _kernel(shared_memory_carveout=carveout)


def test_debug_with_opt_warns_and_gives_line_info():
    with pytest.warns(cuda.InvalidConfigWarning, match="debug=True with opt=True"):
        kernel = _kernel(debug=True)
    assert kernel.lineinfo
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = _kernel(debug=True, opt=False)
    quiet.add_signature(F32)
    assert ".loc" in quiet.inspect_asm(F32)
    with pytest.warns(cuda.InvalidConfigWarning, match="debug and lineinfo are mutually "
                                                       "exclusive"):
        _kernel(debug=True, lineinfo=True, opt=False)


def test_lineinfo_and_extensions_properties():
    assert _kernel(lineinfo=True).lineinfo and not _kernel().lineinfo
    assert _kernel().extensions == []
    with pytest.raises(TypeError, match="prepare_args"):
        _kernel(extensions=[object()])


class _Recorder:
    """An argument extension (Numba's prepare_args protocol) that records what it is given
    and passes a host array as `hint(array)`."""

    def __init__(self, hint, log):
        self.hint, self.log = hint, log

    def prepare_args(self, ty, val, stream=0, retr=None):
        self.log.append((type(self).__name__, ty, stream))
        retr.append(lambda: self.log.append("after launch"))
        if isinstance(val, np.ndarray):
            return ty, cuda.args.wrap_arg(val, default=self.hint)
        return ty, val


def test_extensions_prepare_each_argument_last_first_and_run_their_work_after():
    log = []

    class First(_Recorder):
        pass

    class Second(_Recorder):
        pass

    kernel = _kernel(extensions=[First(cuda.InOut, log)])
    kernel.extensions.append(Second(cuda.In, log))
    x = np.arange(4, dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    kernel[1, 4](out, x)
    # Second wrapped both in In: the kernel's writes to out stay on the device.
    np.testing.assert_array_equal(out, 0)
    assert [entry[0] for entry in log[:4]] == ["Second", "First", "Second", "First"]
    assert log[0][1] == kaji.float32[::1] and log[0][2] == 0
    assert log[4:] == ["after launch"] * 4

    log.clear()
    kernel.extensions.clear()
    kernel.extensions.append(First(cuda.InOut, log))
    kernel[1, 4](out, x)
    np.testing.assert_array_equal(out, 2 * x)
    assert len(log) == 4


def test_transfer_hints_copy_by_hand_as_numbas_do():
    x = np.arange(3, dtype=np.float64)
    retr = []
    device = cuda.args.In(x).to_device(retr)
    np.testing.assert_array_equal(device.copy_to_host(), x)
    out = np.zeros(3)
    written = cuda.args.Out(out).to_device(retr)
    written[:] = 5.0
    for work in retr:
        work()
    np.testing.assert_array_equal(out, 5.0)
    assert cuda.args.wrap_arg(device) is not device
    hinted = cuda.In(x)
    assert cuda.args.wrap_arg(hinted) is hinted
    assert isinstance(cuda.args.wrap_arg(x), cuda.InOut)


def test_cache_option_is_accepted():
    kernel = _kernel(cache=True)
    assert kernel.targetoptions["cache"] is True


def test_calling_a_kernel_without_a_configuration_is_numbas_value_error():
    kernel = _kernel()
    with pytest.raises(ValueError, match="Kernel launch configuration was not specified"):
        kernel(np.zeros(1), np.zeros(1))


def test_launching_a_device_function_is_numbas_runtime_error():
    @cuda.jit(device=True)
    def helper(x):
        return x

    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel"):
        helper[1, 1](1.0)


def test_inspect_sass_disassembles_or_names_the_missing_tool():
    kernel = _kernel()
    kernel.add_signature(F32)
    if _has_disassembler():
        assert "_double" in kernel.inspect_sass(F32)
        assert set(kernel.inspect_sass()) == {F32}
    else:
        with pytest.raises(RuntimeError, match="nvdisasm or cuobjdump"):
            kernel.inspect_sass(F32)


def test_performance_warnings_switch_and_report_their_settings():
    before = kaji.performance_warnings()
    try:
        assert kaji.performance_warnings(low_occupancy=False) == (False, before[1])
        assert kaji.performance_warnings(implicit_copy=False) == (False, False)
    finally:
        kaji.performance_warnings(*before)
    assert issubclass(kaji.PerformanceWarning, UserWarning)
    assert cuda.PerformanceWarning is kaji.PerformanceWarning


def test_performance_warning_switches_come_from_the_environment():
    import os
    import pathlib
    import subprocess
    import sys

    script = "import kaji; print(kaji.performance_warnings())"
    env = {name: value for name, value in os.environ.items()
           if "OCCUPANCY" not in name and "IMPLICIT_COPY" not in name}
    env.update(NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS="0", KAJI_CUDA_WARN_ON_IMPLICIT_COPY="0",
               PYTHONPATH=str(pathlib.Path(kaji.__file__).parents[1]))
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "(False, False)"


# --- on a GPU ---------------------------------------------------------------------------------

def _gpu_kernel(**options):
    return cuda.jit(target="cuda", **options)(_double)


@pytest.mark.gpu
def test_small_grids_warn_of_low_occupancy():
    kernel = _gpu_kernel()
    x = cuda.to_device(np.ones(32, np.float32))
    out = cuda.device_array_like(x)
    with pytest.warns(kaji.PerformanceWarning, match="Grid size 1 will likely result in GPU "
                      "under-utilization"):
        kernel[1, 32](out, x)
    before = kaji.performance_warnings()  # it returns the settings it leaves
    kaji.performance_warnings(low_occupancy=False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            kernel[2, 32](out, x)
    finally:
        kaji.performance_warnings(*before)
    # Numba's threshold is 128 blocks, on every device.
    with pytest.warns(kaji.PerformanceWarning, match="Grid size 127 "):
        kernel[127, 32](out, x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel[128, 32](out, x)


@pytest.mark.gpu
def test_host_arrays_warn_of_their_copies():
    kernel = _gpu_kernel()
    x = np.ones(1 << 16, np.float32)
    blocks = 4 * cuda.get_current_device().MULTIPROCESSOR_COUNT
    with pytest.warns(kaji.PerformanceWarning, match="Host array used in CUDA kernel"):
        kernel[blocks, 256](np.zeros_like(x), x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", kaji.PerformanceWarning)  # in front: it wins
        kernel[blocks, 256](np.zeros_like(x), x)


@pytest.mark.gpu
def test_resource_queries_come_from_the_driver_on_a_gpu():
    kernel = _gpu_kernel(launch_bounds=256, shared_memory_carveout="MaxShared")
    kernel.add_signature(F32)
    assert 0 < kernel.get_regs_per_thread(F32) <= 255
    assert kernel.get_max_threads_per_block(F32) == 256
    assert kernel.get_local_mem_per_thread(F32) == 0


def test_overloads_say_whether_they_launch_cooperatively():
    @cuda.jit(target="cpu")
    def synchronized(a):
        cuda.cg.this_grid().sync()
        a[0] = 1.0

    @cuda.jit(target="cpu")
    def unsynchronized(a):
        a[0] = cuda.grid(1)

    for kernel, cooperative in ((synchronized, True), (unsynchronized, False)):
        kernel.add_signature("void(float64[::1])")
        assert kernel.overloads["void(float64[::1])"].cooperative is cooperative


def test_a_device_function_has_no_sass_of_its_own():
    @cuda.jit(device=True)
    def add(x, y):
        return x + y

    with pytest.raises(RuntimeError, match="Cannot inspect SASS of a device function"):
        add.inspect_sass((kaji.int32, kaji.int32))

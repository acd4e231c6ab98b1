"""Device functions compiled on their own (cuda.compile(device=True), compile_ptx, compile_all,
DeviceFunction.inspect_asm): PTX with a `.visible .func` that code linked with it calls, by
the C ABI or Numba's, and the type it returns.

Without a GPU: the PTX's shape on both backends; ptxas assembles it relocatably; nvlink
resolves a kernel's call of a declared function (cuda.declare_device, Numba's ABI) with it,
which proves the two ABIs match. With a GPU a kernel calls the exported function through
declare_device(link=) and gets its results (test_a_kernel_calls_it_through_declare_device)."""

import re
import subprocess

import numpy as np
import pytest
from toolkit_libraries import NVRTC, assemble_relocatable
from toolkit_libraries import program as tool

import kaji
from kaji import cuda
from kaji.cuda import types

needs_nvrtc = pytest.mark.skipif(not NVRTC, reason="no NVRTC here")
needs_ptxas = pytest.mark.skipif(tool("ptxas") is None, reason="no ptxas here")
BACKENDS = ["llvm", pytest.param("nvrtc", marks=needs_nvrtc)]


def add(x, y):
    return x + y


def halve(x):
    return x / 2


def visible_functions(ptx):
    """Each `.visible .func`'s declaration, whitespace collapsed."""
    return [" ".join(match.split()) for match in
            re.findall(r"\.visible\s+\.func[^{;]*", ptx)]


def test_the_c_abi_returns_the_result_under_the_functions_name():
    ptx, resty = cuda.compile(add, types.int32(types.int32, types.int32), device=True)
    [declaration] = visible_functions(ptx)
    assert declaration.startswith(".visible .func (.param .b32 func_retval0) add(")
    assert declaration.count(".param") == 3 and ".visible .entry" not in ptx
    assert resty == types.int32


def test_the_result_converts_to_the_signatures_type():
    # Python's int32 + int32 is an int64; the signature makes it an int32, or an int16.
    for resty in (types.int32, types.int16, types.uint32):
        ptx, got = cuda.compile(add, resty(resty, resty), device=True)
        assert got == resty
        assert "func_retval0" in ptx
    ptx, got = cuda.compile(add, "float32(int64, int64)", device=True)
    assert got == types.float32 and "cvt.rn.f32.s64" in ptx


def test_without_a_return_type_it_returns_what_it_computes():
    assert cuda.compile(add, (types.float32, types.float32), device=True)[1] == types.float32
    assert cuda.compile(lambda a, b: a == b, (types.int32, types.int32),
                        device=True)[1] == types.boolean
    assert cuda.compile(halve, (types.complex128,), device=True, abi="c")[1] == \
        types.complex128


def test_abi_name_names_it_and_a_lambda_gets_an_identifier():
    ptx, _ = cuda.compile(add, types.int32(types.int32, types.int32), device=True,
                          abi_info={"abi_name": "_Z4funcii"})
    assert re.search(r"\.visible\s+\.func\s+\(\.param\s+\.b32\s+func_retval0\)\s+_Z4funcii\(",
                     ptx)
    ptx, _ = cuda.compile(lambda x: x, types.int32(types.int32), device=True)
    assert "_lambda_(" in ptx
    with pytest.raises(ValueError, match="abi_name 'not a name' is not a PTX identifier"):
        cuda.compile(add, types.int32(types.int32, types.int32), device=True,
                     abi_info={"abi_name": "not a name"})


@pytest.mark.parametrize("backend", BACKENDS)
def test_numbas_abi_stores_the_result_and_returns_zero(backend):
    device = cuda.jit(device=True, backend=backend)(add)
    ptx = device.inspect_asm(types.int32(types.int32, types.int32))
    [declaration] = visible_functions(ptx)
    # int add(int *retptr, int x, int y)
    assert declaration.startswith(".visible .func (.param .b32 func_retval0) add(")
    assert [w for w in declaration.split() if w in (".b64", ".b32", ".u64", ".u32")][1:4] in (
        [".b64", ".b32", ".b32"], [".u64", ".u32", ".u32"])
    assert re.search(r"st(\.global)?\.u32", ptx) and "add.s32" in ptx


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_c_abi_on_both_backends(backend):
    device = cuda.jit(device=True, backend=backend)(add)
    from kaji.compiling import device_function_code

    ptx, resty = device_function_code(device._definition, types.float32(types.float32,
                                                                          types.float32),
                                      {"backend": backend}, "c", None, "sm_90")
    [declaration] = visible_functions(ptx)
    assert declaration.startswith(".visible .func (.param .b32 func_retval0) add(")
    assert ("add.f32" in ptx or "add.rn.f32" in ptx) and resty == types.float32


def test_device_function_inspection_takes_its_options():
    def multiply_add(a, b, c):
        return a * b + c

    sig = (types.float64, types.float64, types.float64)
    assert "fma.rn.f64" in cuda.jit(sig, device=True)(multiply_add).inspect_asm(sig)
    pair = (types.float32, types.float32)
    fast = cuda.jit(device=True, fastmath=True)(lambda x, y: x / y)
    assert "div.approx.ftz.f32" in fast.inspect_asm(pair)
    exact = cuda.jit(device=True)(lambda x, y: x / y)
    assert "div.rn.f32" in exact.inspect_asm(pair)
    assert "fdiv" in exact.inspect_llvm(pair)
    signed = cuda.jit(["float32(float32)", "float64(float64)"], device=True)(lambda x: x / 3)
    assert sorted(signed.inspect_asm()) == ["float32(float32)", "float64(float64)"]


def test_a_function_with_no_arguments_and_no_result():
    def nothing():
        pass

    ptx, resty = cuda.compile_ptx(nothing, (), device=True, debug=True, opt=False)
    assert resty == types.void and ".visible .func" in ptx


def test_compile_all_lists_it():
    [ptx], resty = cuda.compile_all(add, (types.float32, types.float32), device=True)
    assert resty == types.float32 and ".visible .func" in ptx


@pytest.mark.parametrize("function, sig, message", [
    (lambda a: a[0], (types.float32[::1],), "compiled on its own takes numbers, not"),
    (lambda a: (a, a), (types.float32,), "compiled on its own returns a tuple"),
    (lambda a: a, types.float32(types.complex64), "returns complex64 but its signature says "
                                                  "float32"),
])
def test_what_it_cannot_export_is_a_compile_error_at_the_function(function, sig, message):
    with pytest.raises(kaji.CompileError,
                       match=r"test_compile_device_functions\.py:\d+:\d+: error: .*" + message):
        cuda.compile(function, sig, device=True)


def twice_plus_one(x):
    return 2 * x + 1


declared = cuda.declare_device("twice_plus_one", "float32(float32)")


def apply_declared(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = declared(x[i])


@needs_ptxas
@pytest.mark.parametrize("backend", BACKENDS)
def test_nvlink_resolves_a_declared_call_with_it(backend, tmp_path):
    exported, _ = cuda.compile_ptx(twice_plus_one, types.float32(types.float32), device=True,
                                   cc=(9, 0))
    callee = assemble_relocatable(exported, tmp_path, "callee")
    kernel = kaji.jit(target="cpu", backend=backend)(apply_declared)
    caller_ptx = kaji._core.compile(kernel._source, kernel._describe_globals,
                                    "void(float32[:], float32[:])", stage="ptx", backend=backend)
    caller = assemble_relocatable(caller_ptx, tmp_path, "caller")
    if tool("nvlink") is None:
        pytest.skip("no nvlink here")
    linked = subprocess.run([tool("nvlink"), "-arch=sm_90", str(caller), str(callee), "-o",
                             str(tmp_path / "linked.cubin")], capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("abi_backend", BACKENDS)
def test_a_kernel_calls_it_through_declare_device(abi_backend, tmp_path):
    exported = cuda.jit(device=True, backend=abi_backend)(twice_plus_one)
    path = tmp_path / "twice_plus_one.ptx"
    path.write_text(exported.inspect_asm(types.float32(types.float32)))
    linked = cuda.declare_device("twice_plus_one", "float32(float32)", link=str(path))

    @cuda.jit
    def kernel(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = linked(x[i])

    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[4, 256](out, x)
    np.testing.assert_array_equal(out, 2 * x + 1)


@needs_nvrtc
@pytest.mark.parametrize("abi", ["c", "numba"])
def test_ltoir_of_a_device_function_is_nvrtcs(abi):
    code, resty = cuda.compile(add, types.float32(types.float32, types.float32), device=True,
                               abi=abi, output="ltoir")
    assert isinstance(code, bytes) and code[:4] == b"\xedCN\x7f"  # NVVM's LTO-IR magic
    assert resty == types.float32


def test_compile_device_names_the_symbol_inspection_shows():
    @cuda.jit(device=True)
    def add_pair(x, y):
        return x + y

    args = (kaji.int32, kaji.int32)
    result = add_pair.compile_device(args)
    assert result.fndesc.mangled_name == "add_pair"
    # int32 + int32 is int32 in kaji, as in NumPy (docs/sema.md).
    assert result.signature.args == args and result.signature.return_type == kaji.int32
    assert ".func (.param .b32 func_retval0) add_pair(" in " ".join(
        add_pair.inspect_asm(args).split())
    assert "@add_pair(" in add_pair.inspect_llvm(args)
    assert add_pair.compile_device(args, kaji.float32).signature.return_type == kaji.float32

    @cuda.jit(device=True)
    def broken(x):
        return x + undefined_name  # noqa: F821

    with pytest.raises(kaji.CompileError, match="name 'undefined_name' is not defined"):
        broken.compile_device((kaji.int32,))

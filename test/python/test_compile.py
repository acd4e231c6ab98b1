"""Compiling through the decorator: no GPU needed."""

import functools
import inspect
import math

import numpy as np
import pytest

import kaji
from kaji import cuda

SAXPY_SIG = "void(float32[:], float32, float32[:], float32[:])"
SCALE = 3
OFFSET = np.float32(0.5)


@kaji.jit
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def numba_style_copy(out, x):
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if i < x.size:
        out[i] = x[i]


@kaji.jit(device=True)
def hypotenuse(a, b):
    return math.sqrt(a * a + b * b)


@kaji.jit
def calls_device_function(out, x, y):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = hypotenuse(x[i], y[i]) * SCALE + OFFSET


@kaji.jit("void(float64[:], float64)")
def eager_fill(out, value):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = value


def test_inspect_ptx_of_saxpy():
    ptx = saxpy.inspect_ptx(SAXPY_SIG)
    assert ".entry" in ptx
    assert "saxpy" in ptx


def test_inspect_ir_and_llvm():
    assert "saxpy" in saxpy.inspect_ir(SAXPY_SIG)
    for target, triple in [("cuda", "nvptx64"), ("cpu", "x86_64")]:
        kernel = kaji.jit(target=target)(saxpy.py_func)
        assert triple in kernel.inspect_llvm(SAXPY_SIG)


def test_numba_spelling_compiles():
    assert ".entry" in numba_style_copy.inspect_ptx("void(int32[:], int32[:])")


def test_device_function_and_globals():
    ptx = calls_device_function.inspect_ptx("void(float32[:], float32[:], float32[:])")
    assert ".entry" in ptx


def test_closure_constant():
    factor = 7

    @kaji.jit
    def scale(out):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = out[i] * factor

    assert ".entry" in scale.inspect_ptx("void(int64[:])")


def test_eager_signature_is_compiled_at_decoration():
    assert eager_fill.signatures == ["void(float64[:], float64)"]
    assert set(eager_fill.inspect_ptx()) == {"void(float64[:], float64)"}


def test_a_decorator_unpacking_its_arguments_compiles_the_kernel():
    signatures = ["void(float64[::1])"]
    options = {"fastmath": False}

    @kaji.jit(*signatures, target="cpu", **options)
    def doubled(out):
        out[0] = 2 * out[0]

    out = np.ones(1)
    doubled[1, 1](out)
    assert doubled.signatures == signatures and out[0] == 2.0


def _plain_python(x):
    return x


UNUSABLE_LIST = [1, 2]


@pytest.mark.bytecode
@pytest.mark.parametrize("body, words", [
    ("out[0] = _plain_python(1)", "Untyped global name '_plain_python': the Python function "
                                  "'_plain_python' is not compiled for kernels: decorate it"),
    ("out[0] = pytest.x", "module 'pytest' has no attribute 'x'"),
    ("out[0] = pytest.importorskip(1)", "Untyped global name 'pytest.importorskip': the Python "
                                        "function 'importorskip' is not compiled for kernels"),
    ("out[0] = UNUSABLE_LIST[0]", "Untyped global name 'UNUSABLE_LIST': kernels cannot use a "
                                  "value of type 'list'"),
])
def test_a_global_kernels_cannot_use_is_named_with_the_reason(body, words):
    namespace = {"_plain_python": _plain_python, "pytest": pytest,
                 "UNUSABLE_LIST": UNUSABLE_LIST}
    exec(f"def uses_it(out):\n    {body}\n", namespace)
    with pytest.raises(kaji.CompileError, match=words):
        kaji.jit("void(float64[:])", target="cpu")(namespace["uses_it"])


def test_signature_with_wrong_arity_is_a_type_error():
    with pytest.raises(TypeError, match="takes 4 arguments"):
        saxpy.inspect_ptx("void(float32[:])")


@pytest.mark.parametrize("device", [False, True])
def test_jit_of_a_partial_is_a_type_error_naming_it(device):
    import functools

    def fill(out, value):
        out[0] = value

    with pytest.raises(TypeError, match=r"kaji\.jit compiles Python functions \(a def or a "
                                        r"lambda\), not functools\.partial\(.*fill.*: bind"):
        kaji.jit(device=device)(functools.partial(fill, value=1.0))


def test_malformed_signature_is_a_compile_error():
    with pytest.raises(kaji.CompileError, match="<signature>"):
        saxpy.inspect_ptx("void(float33[:], float32, float32[:], float32[:])")


def _line_and_column_of(func, text):
    lines, first = inspect.getsourcelines(func)
    for offset, line in enumerate(lines):
        if text in line:
            return first + offset, line.index(text) + 1, line.rstrip("\n")
    raise AssertionError(f"{text!r} not in the source of {func.__name__}")


def test_compile_error_points_into_this_file():
    @kaji.jit
    def uses_unknown_name(out):
        out[0] = undefined_global_xyz  # noqa: F821

    with pytest.raises(kaji.CompileError) as info:
        uses_unknown_name.inspect_ptx("void(float32[:])")
    line, column, source_line = _line_and_column_of(uses_unknown_name, "undefined_global_xyz")
    error = info.value
    rendered = str(error).splitlines()
    assert rendered[0].startswith(f"{__file__}:{line}:{column}: error: ")
    assert "undefined_global_xyz" in rendered[0]
    assert rendered[1] == source_line
    assert rendered[2] == " " * (column - 1) + "^"
    assert (error.filename, error.lineno, error.col) == (__file__, line, column)


def test_compile_error_in_a_device_function_points_at_it():
    @kaji.jit(device=True)
    def broken(x):
        return x + missing_name_abc  # noqa: F821

    @kaji.jit
    def caller(out):
        out[0] = broken(out[0])

    with pytest.raises(kaji.CompileError) as info:
        caller.inspect_ptx("void(float32[:])")
    line, column, _ = _line_and_column_of(broken, "missing_name_abc")
    assert str(info.value).startswith(f"{__file__}:{line}:{column}: error: ")


def test_kernel_needs_a_launch_configuration():
    with pytest.raises(ValueError, match=r"Kernel launch configuration was not specified"):
        saxpy(1, 2, 3, 4)


def test_device_function_is_not_callable_from_python():
    with pytest.raises(TypeError, match="only be called from a kaji kernel"):
        hypotenuse(3.0, 4.0)


def test_device_function_signature_is_checked_at_decoration():
    with pytest.raises(kaji.CompileError, match="unknown type 'flaot32'"):
        kaji.jit("flaot32(float32)", device=True)(hypotenuse.py_func)


@pytest.mark.bytecode
def test_source_less_function_compiles_from_bytecode():
    # More in test_kernels_without_source.py.
    namespace = {}
    exec("def made_up(out):\n    out[0] = 1\n", namespace)
    out = np.zeros(1)
    kaji.jit(namespace["made_up"], target="cpu")[1, 1](out)
    assert out[0] == 1


def test_lineinfo_marks_ptx_with_python_lines():
    def wave(out, x):
        i = kaji.grid(1)
        out[i] = x[i] * 2.0

    signature = "void(float32[:], float32[:])"
    marked = kaji.jit(lineinfo=True)(wave).inspect_ptx(signature)
    plain = kaji.jit(wave).inspect_ptx(signature)
    line = wave.__code__.co_firstlineno
    assert f"\t.loc\t1 {line + 2} " in marked and "test_compile.py" in marked
    assert "\t.loc\t" not in plain


def test_builtin_newer_than_the_gpu_is_a_compile_error():
    # A kernel compiles for the compute capability of the device it launches on; this is
    # the call the dispatcher makes for an sm_60 GPU.
    def peers(out):
        out[0] = cuda.match_any_sync(0xFFFFFFFF, out[1])

    source = kaji._function_source.function_source(peers)
    describe = functools.partial(kaji._globals.describe_globals, peers)
    with pytest.raises(kaji.CompileError,
                       match=r"'match_any_sync' needs sm_70 or newer \(compiling for sm_60\)"):
        kaji._core.compile(source, describe, "void(uint32[:])", arch="sm_60")
    assert ".target sm_70" in kaji._core.compile(source, describe, "void(uint32[:])",
                                                 arch="sm_70")

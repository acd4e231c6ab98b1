"""kaji.cuda.extending, Numba's extension API at its path: the misuse of `overload` and
`register_jitable` is an exception naming the problem, the module is reached as Numba's users
reach it, kernels calling overloaded functions use the disk cache safely, and what Numba's own
@overload registered counts too."""

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda.extending import overload, register_jitable


def placeholder(x):
    raise NotImplementedError


def test_the_module_is_reached_at_numbas_path():
    import kaji.cuda.extending as by_import

    assert cuda.extending is by_import and by_import.overload is overload


@pytest.mark.parametrize("options, error, words", [
    (dict(target="gpu"), ValueError, "target must be one of 'cuda', 'generic'"),
    (dict(inline=lambda *args: True), ValueError, "kaji takes no cost-model function"),
    (dict(nonsense=1), TypeError, "unexpected keyword arguments: nonsense"),
])
def test_bad_overload_options_are_named(options, error, words):
    with pytest.raises(error, match=words):
        overload(placeholder, **options)


def test_register_jitable_takes_a_function_or_options():
    with pytest.raises(TypeError, match="the function, or keyword options only"):
        register_jitable(1, 2)
    with pytest.raises(ValueError, match="inline must be"):
        register_jitable(inline="sometimes")(placeholder)


def test_an_implementation_only_for_numbas_cpu_target_is_not_one_for_kernels():
    def cpu_only(x):
        raise NotImplementedError

    overload(cpu_only, target="cpu")(lambda x: lambda x: x)

    @kaji.jit(target="cpu")
    def kernel(out):
        out[0] = cpu_only(1)

    with pytest.raises(kaji.CompileError, match="Untyped global name 'cpu_only': the Python "
                                                "function .* is not compiled for kernels"):
        kernel[1, 1](np.zeros(1))


def test_a_typing_function_returning_no_function_is_named():
    def odd(x):
        raise NotImplementedError

    @overload(odd)
    def odd_typing(x):
        return 42

    @kaji.jit(target="cpu")
    def kernel(out):
        out[0] = odd(1)

    with pytest.raises(kaji.CompileError, match="'.*odd_typing' returned 42, not a function"):
        kernel[1, 1](np.zeros(1))


@pytest.mark.bytecode
def test_a_cached_kernel_calling_an_overloaded_function_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("KAJI_CACHE_DIR", str(tmp_path))

    def doubled(x):
        raise NotImplementedError

    overload(doubled)(lambda x: lambda x: 2 * x)

    @kaji.jit(target="cpu", cache=True)
    def kernel(out, x):
        out[0] = doubled(x)

    out = np.zeros(1)
    kernel[1, 1](out, 4.0)
    assert out[0] == 8.0


@pytest.mark.bytecode
def test_implementations_registered_with_numbas_own_overload_count(monkeypatch):
    """Numba's registry as numba.core.typing.templates keeps it: (function, Function type)
    pairs whose templates hold the typing function, its target and inlining."""
    import sys
    import types as python_types

    def numba_overloaded(x):
        raise NotImplementedError

    def template(typing_function, target=None):
        metadata = {} if target is None else {"target": target}
        inline = python_types.SimpleNamespace(is_always_inline=False)
        return type("OverloadTemplate", (), {"_overload_func": staticmethod(typing_function),
                                             "metadata": metadata, "_inline": inline})

    registry = python_types.SimpleNamespace(globals=[])
    templates = python_types.ModuleType("numba.core.typing.templates")
    templates.builtin_registry = registry
    monkeypatch.setitem(sys.modules, "numba.core.typing.templates", templates)
    registry.globals.append((numba_overloaded, python_types.SimpleNamespace(templates=[
        template(lambda x: lambda x: x * 100, target="cpu"),
        template(lambda x: lambda x: x * 10)])))

    @kaji.jit(target="cpu")
    def kernel(out, x):
        out[0] = numba_overloaded(x)

    out = np.zeros(1)
    kernel[1, 1](out, 4.0)
    assert out[0] == 40.0  # the generic implementation; the cpu one is Numba's CPU target's
    registry.globals.append((numba_overloaded, python_types.SimpleNamespace(templates=[
        template(lambda x: lambda x: x * 1000, target="cuda")])))

    @kaji.jit(target="cpu")
    def again(out, x):
        out[0] = numba_overloaded(x)

    again[1, 1](out, 4.0)
    assert out[0] == 4000.0  # registered later, and for CUDA: it comes first


def test_numbas_own_overload_in_a_kernel():
    numba_extending = pytest.importorskip("numba.extending")

    def get_42():
        raise NotImplementedError

    @numba_extending.overload(get_42, target="cuda", inline="always")
    def get_42_for_cuda():
        def impl():
            values = cuda.local.array(1, dtype=np.float32)
            values[0] = 42.0
            return values[0]

        return impl

    @kaji.jit(target="cpu")
    def kernel(a):
        a[0] = get_42()

    a = np.zeros(1, dtype=np.float32)
    kernel[1, 1](a)
    assert a[0] == 42.0


def test_generic_and_cpu_overloads_reach_numbas_own_compiler():
    numba = pytest.importorskip("numba")

    def scaled(x):
        raise NotImplementedError

    overload(scaled, target="generic")(lambda x: lambda x: x * 2)
    overload(scaled, target="cuda")(lambda x: lambda x: x * 3)

    @numba.njit
    def on_the_cpu(x):
        return scaled(x)

    @kaji.jit(target="cpu")
    def kernel(out, x):
        out[0] = scaled(x)

    out = np.zeros(1)
    kernel[1, 1](out, 5.0)
    assert on_the_cpu(5.0) == 10.0 and out[0] == 15.0

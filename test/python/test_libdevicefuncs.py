"""kaji.cuda.libdevicefuncs: Numba's table of the libdevice functions (numba.cuda.libdevicefuncs)
read from the compiler's, and the signatures of cuda.libdevice's Python functions."""

import pytest

from kaji import types
from kaji.cuda import compile_ptx, libdevice
from kaji.cuda.libdevicefuncs import arg, create_signature, functions


def test_the_table_has_every_function_of_cuda_libdevice_by_its_libdevice_name():
    assert sorted(functions) == sorted("__nv_" + name for name in dir(libdevice))
    assert functions["__nv_sinf"] == (types.float32, [arg("x", types.float32, False)])
    assert functions["__nv_frexp"] == (
        types.float64, [arg("x", types.float64, False), arg("out0", types.int32, True)])
    assert functions["__nv_sincosf"][0] == types.void


def test_create_signature_returns_the_outputs_after_the_result_as_a_tuple():
    assert str(create_signature(*functions["__nv_sinf"])) == "(float32,) -> float32"
    assert create_signature(*functions["__nv_frexp"]).return_type == types.Tuple(
        (types.float64, types.int32))
    sincos = create_signature(*functions["__nv_sincos"])
    assert sincos.return_type == types.UniTuple(types.float64, 2)
    assert sincos.args == (types.float64,)
    remquo = create_signature(*functions["__nv_remquof"])
    assert remquo.args == (types.float32, types.float32)


WITH_OUTPUTS = sorted(name for name, (_, args) in functions.items()
                      if any(a.is_ptr for a in args))


@pytest.mark.bytecode
@pytest.mark.parametrize("libname", WITH_OUTPUTS)
def test_each_function_with_outputs_compiles_by_its_signature(libname):
    """As Numba's own test of the table: the values unpacked from the call into arrays."""
    retty, args = functions[libname]
    sig = create_signature(retty, args)
    inputs = [f"a{i}" for i, a in enumerate(args) if not a.is_ptr]
    outputs = [f"r{i}" for i in range(len(sig.return_type))]
    source = (f"from kaji.cuda import libdevice\n"
              f"def store({', '.join(outputs + inputs)}):\n"
              f"    {', '.join(o + '[0]' for o in outputs)} = "
              f"libdevice.{libname[5:]}({', '.join(inputs)})\n")
    namespace = {}
    exec(source, namespace)
    ptx, _ = compile_ptx(namespace["store"],
                         tuple(t[::1] for t in sig.return_type) + sig.args)
    assert "ld.param" in ptx and "st.global" in ptx

"""print() in kernels: Numba's formatting (integers, %f floats, True/False, sep and end,
tuples and dim3 values as Python prints tuples)."""

import numpy as np
import pytest

import kaji


def greet(x):
    i = kaji.grid(1)
    if i < x.size:
        print("thread", i, "has", x[i], x[i] > 0, "100% {ok}")


def test_each_thread_prints_its_line(jit, capfd):
    x = np.array([1.5, -2.0, 0.25])
    jit(greet)[1, 32](x)
    kaji.synchronize()
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == ["thread 0 has 1.500000 True 100% {ok}",
                     "thread 1 has -2.000000 False 100% {ok}",
                     "thread 2 has 0.250000 True 100% {ok}"]


def separators(out):
    if kaji.grid(1) == 0:
        print(np.uint64(2**64 - 1), np.int8(-5), np.float32(0.5), sep=", ", end=";\n")
        print()
        out[0] = 1


def test_sep_end_and_integer_types(jit, capfd):
    out = np.zeros(1, np.int32)
    jit(separators)[1, 1](out)
    kaji.synchronize()
    assert capfd.readouterr().out == "18446744073709551615, -5, 0.500000;\n\n"


def prints_array(x):
    print(x)


def test_printing_an_array_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError,
                       match="print\\(\\) in kernels takes strings, numbers and tuples"):
        jit(prints_array)[1, 1](np.zeros(2))


def prints_nul(out):
    if kaji.grid(1) == 0:
        print("a\x00b", out[0], "\x00")
        print("next")


def test_a_nul_byte_is_printed_with_the_rest_of_the_line(jit, capfd):
    # A C format string ends at its first NUL: each NUL goes through "%c" instead.
    out = np.array([2], np.int64)
    jit(prints_nul)[1, 1](out)
    kaji.synchronize()
    assert capfd.readouterr().out == "a\x00b 2 \x00\nnext\n"


def prints_tuples(t, single):
    if kaji.grid(1) == 0:
        print(t)
        print(single, ("label", True), ())
        print((1, ((2, 4), 3.5), (4,), 5))


def test_tuples_print_as_python_prints_them(jit, capfd):
    jit(prints_tuples)[1, 1]((1, 2, 3), (7,))
    kaji.synchronize()
    assert capfd.readouterr().out.splitlines() == [
        "(1, 2, 3)", "(7,) ('label', True) ()", "(1, ((2, 4), 3.500000), (4,), 5)"]


def prints_thread_index():
    print(kaji.threadIdx)


def test_a_dim3_prints_as_the_tuple_of_its_x_y_z(jit, capfd):
    jit(prints_thread_index)[1, (2, 1, 2)]()
    kaji.synchronize()
    assert sorted(capfd.readouterr().out.splitlines()) == [
        "(0, 0, 0)", "(0, 0, 1)", "(1, 0, 0)", "(1, 0, 1)"]


def prints_forty_values(x):
    if kaji.grid(1) == 0:
        print(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12],
              x[13], x[14], x[15], x[16], x[17], x[18], x[19], x[20], x[21], x[22], x[23], x[24],
              x[25], x[26], x[27], x[28], x[29], x[30], x[31], x[32], x[33], x[34], x[35], x[36],
              x[37], x[38], x[39] > 0)


def test_more_values_than_cudas_printf_takes_all_print(jit, capfd):
    # CUDA's printf takes 32 arguments after the format; the 33rd printed garbage on an H200.
    x = np.arange(40, dtype=np.int64)
    jit(prints_forty_values)[1, 1](x)
    kaji.synchronize()
    assert capfd.readouterr().out == " ".join(str(v) for v in range(39)) + " True\n"

"""Per-thread stacks: local arrays and device-function frames that together exceed the cpu
target's default 64 KiB fiber stack must work (stacks are sized from the kernel's frames), and
what is over CUDA's 512 KiB of local memory per thread is an error before launch, never a
crash."""

import importlib.util
import textwrap

import numpy as np
import pytest

import kaji


def four_local_arrays_across_a_barrier(out, x):
    a = kaji.local.array(4096, np.float32)
    b = kaji.local.array(4096, np.float32)
    c = kaji.local.array(4096, np.float32)
    d = kaji.local.array(4096, np.float32)
    i = kaji.threadIdx.x
    for j in range(4096):
        a[j] = x[(i + j) % x.size]
        b[j] = x[(i * 3 + j) % x.size]
        c[j] = x[(i * 5 + j) % x.size]
        d[j] = x[(i * 7 + j) % x.size]
    kaji.syncthreads()
    s = 0.0
    for j in range(4096):
        s += a[(j * 7 + i) % 4096] * b[(j * 5 + i) % 4096] + c[(j * 3 + i) % 4096] - d[j]
    out[i] = s


def _four_local_arrays_reference(x, threads):
    j = np.arange(4096)
    out = np.zeros(threads, np.float64)
    for i in range(threads):
        a = x[(i + j) % x.size].astype(np.float64)
        b = x[(i * 3 + j) % x.size].astype(np.float64)
        c = x[(i * 5 + j) % x.size].astype(np.float64)
        d = x[(i * 7 + j) % x.size].astype(np.float64)
        out[i] = np.sum(a[(j * 7 + i) % 4096] * b[(j * 5 + i) % 4096] + c[(j * 3 + i) % 4096] - d)
    return out


def test_local_arrays_over_64_kib_with_a_barrier(jit):
    x = np.random.default_rng(5).random(5000).astype(np.float32)
    out = np.zeros(64, np.float32)
    jit(four_local_arrays_across_a_barrier)[1, 64](out, x)
    np.testing.assert_allclose(out, _four_local_arrays_reference(x, 64), rtol=1e-4)


@kaji.jit(device=True)
def fill_and_sum(x, offset):
    scratch = kaji.local.array(4096, np.float32)
    for j in range(4096):
        scratch[j] = x[(offset + j) % x.size]
    kaji.syncthreads()
    s = 0.0
    for j in range(4096):
        s += scratch[(j * 3 + offset) % 4096]
    return s


@kaji.jit(device=True)
def nested_twice(x, offset):
    keep = kaji.local.array(4096, np.float32)
    for j in range(4096):
        keep[j] = x[(offset * 2 + j) % x.size]
    s = fill_and_sum(x, offset + 1) + fill_and_sum(x, offset + 2)
    for j in range(4096):
        s += keep[j]
    return s


def nested_device_frames(out, x):
    i = kaji.threadIdx.x
    out[i] = nested_twice(x, i) + fill_and_sum(x, i + 3)


def test_nested_device_functions_with_local_arrays(jit):
    x = np.random.default_rng(6).random(5000).astype(np.float32)
    out = np.zeros(32, np.float32)
    jit(nested_device_frames)[1, 32](out, x)
    j = np.arange(4096)
    x64 = x.astype(np.float64)

    def fill(offset):
        return np.sum(x64[(offset + (j * 3 + offset) % 4096) % x.size])

    expected = [np.sum(x64[(2 * i + j) % x.size]) + fill(i + 1) + fill(i + 2) + fill(i + 3)
                for i in range(32)]
    np.testing.assert_allclose(out, expected, rtol=1e-4)


def test_stack_over_cuda_local_memory_is_an_error_before_launch(tmp_path):
    arrays = 40  # of 16 KiB each: 640 KiB per thread
    body = "\n".join(f"    a{k} = kaji.local.array(4096, np.float32)\n"
                     f"    a{k}[i] = x[i]" for k in range(arrays))
    total = " + ".join(f"a{k}[i]" for k in range(arrays))
    source = tmp_path / "huge_frames.py"
    source.write_text(textwrap.dedent("""\
        import numpy as np
        import kaji

        def huge(out, x):
            i = kaji.threadIdx.x
        """) + body + f"\n    kaji.syncthreads()\n    out[i] = {total}\n")
    spec = importlib.util.spec_from_file_location("huge_frames", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = kaji.jit(module.huge, target="cpu")
    out = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match=r"needs \d+ bytes of stack per thread .* over the "
                                         r"524288 bytes"):
        kernel[1, 4](out, np.ones(4, np.float32))
    assert not out.any()


def one_big_local_array(out, x):
    scratch = kaji.local.array(65536, np.float32)  # 256 KiB
    i = kaji.threadIdx.x
    for j in range(65536):
        scratch[j] = x[(i + j) % x.size]
    kaji.syncthreads()
    s = 0.0
    for j in range(0, 65536, 257):
        s += scratch[j]
    out[i] = s


def test_a_256_kib_local_array_with_a_barrier(jit, target):
    if target != "cpu":
        pytest.skip("the driver reserves the 256 KiB for every thread the GPU holds resident "
                    "(about 70 GB on an H100), more than test processes sharing a GPU have")
    x = np.random.default_rng(7).random(1000).astype(np.float32)
    out = np.zeros(16, np.float32)
    jit(one_big_local_array)[1, 16](out, x)
    j = np.arange(0, 65536, 257)
    expected = [np.sum(x[(i + j) % x.size].astype(np.float64)) for i in range(16)]
    np.testing.assert_allclose(out, expected, rtol=1e-4)

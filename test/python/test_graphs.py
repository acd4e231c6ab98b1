"""kaji.graph: CUDA graphs captured from a stream, replayed and updated. The capture itself
needs a GPU (tests marked gpu); what is decided before the driver is involved is checked
everywhere."""

import numpy as np
import pytest

import kaji


@kaji.jit(target="cuda")
def add_scaled(out, a, x):
    i = kaji.grid(1)
    if i < out.size:
        out[i] += a * x[i]


@kaji.jit(target="cpu")
def fill_on_cpu(out):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = 1


@pytest.mark.parametrize("stream", [None, 0], ids=["None", "zero"])
def test_the_legacy_default_stream_cannot_be_captured(stream):
    with pytest.raises(ValueError, match="legacy default stream.*cuStreamBeginCapture"):
        kaji.graph(stream)


def test_capturing_the_legacy_stream_pseudo_handle_is_refused_too():
    with pytest.raises(ValueError, match="legacy default stream"):
        kaji.graph(kaji.external_stream(1))


def test_a_graph_is_neither_launched_nor_updated_before_its_capture():
    g = kaji.graph(kaji.external_stream(0x1234))
    with pytest.raises(RuntimeError, match="was not captured"):
        g.launch()
    with pytest.raises(RuntimeError, match="was not captured"):
        g.update(0)
    assert g.kernel_launches == 0


def test_a_non_stream_is_a_type_error():
    with pytest.raises(TypeError, match="stream must be a kaji stream"):
        kaji.graph("stream")


@pytest.mark.skipif(kaji.is_available(), reason="checks the machine without a CUDA driver")
def test_capturing_without_a_gpu_raises_cuda_unavailable():
    with pytest.raises(kaji.CudaUnavailable):
        with kaji.graph(kaji.external_stream(0x1234)):
            pass


def chain(out, x, stream, steps):
    for step in range(steps):
        add_scaled[(out.size + 127) // 128, 128, stream](out, np.float32(step + 1), x)


@pytest.mark.gpu
def test_capture_records_without_running_and_replays():
    stream = kaji.stream()
    x = kaji.to_device(np.arange(1000, dtype=np.float32))
    out = kaji.to_device(np.zeros(1000, np.float32))
    with kaji.graph(stream) as g:
        chain(out, x, stream, 3)
    stream.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), 0)
    assert g.kernel_launches == 3
    g.launch(stream)
    g.launch(stream)
    stream.synchronize()
    np.testing.assert_allclose(out.copy_to_host(), 2 * 6 * np.arange(1000, dtype=np.float32))


@pytest.mark.gpu
def test_update_gives_a_launch_new_arguments_without_recapture():
    stream = kaji.stream()
    x = kaji.to_device(np.ones(256, np.float32))
    out = kaji.to_device(np.zeros(256, np.float32))
    other = kaji.to_device(np.zeros(256, np.float32))
    with kaji.graph(stream) as g:
        add_scaled[2, 128, stream](out, np.float32(1), x)
    g.update(0, other, np.float32(5), x)
    g.launch(stream)
    stream.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), 0)
    np.testing.assert_array_equal(other.copy_to_host(), 5)


@pytest.mark.gpu
def test_update_must_keep_the_argument_types():
    stream = kaji.stream()
    x = kaji.to_device(np.ones(256, np.float32))
    with kaji.graph(stream) as g:
        add_scaled[2, 128, stream](x, np.float32(1), x)
    with pytest.raises(TypeError, match="a graph update must keep their types"):
        g.update(0, x, np.float64(1), x)
    with pytest.raises(IndexError, match="no launch 1"):
        g.update(1, x, np.float32(1), x)


@pytest.mark.gpu
def test_numpy_arguments_are_refused_in_a_capture():
    stream = kaji.stream()
    x = kaji.to_device(np.ones(256, np.float32))
    with pytest.raises(TypeError, match="numpy array.*kaji.to_device"):
        with kaji.graph(stream):
            add_scaled[2, 128, stream](np.zeros(256, np.float32), np.float32(1), x)
    add_scaled[2, 128, stream](x, np.float32(1), x)  # the stream is usable again
    stream.synchronize()


@pytest.mark.gpu
def test_synchronizing_inside_a_capture_is_a_cuda_error_naming_the_call():
    stream = kaji.stream()
    with pytest.raises(kaji.CudaError) as error:
        with kaji.graph(stream):
            kaji.synchronize()
    assert error.value.call == "cuCtxSynchronize"
    assert "STREAM_CAPTURE" in error.value.error_name


@pytest.mark.gpu
def test_cpu_kernels_cannot_be_captured():
    out = np.zeros(4, np.int32)
    with pytest.raises(RuntimeError, match="targets the cpu"):
        with kaji.graph(kaji.stream()):
            fill_on_cpu[1, 32](out)


@pytest.mark.gpu
def test_captures_do_not_nest():
    outer, inner = kaji.graph(kaji.stream()), kaji.graph(kaji.stream())
    with outer:
        with pytest.raises(RuntimeError, match="do not nest"):
            with inner:
                pass


@pytest.mark.gpu
def test_graph_launches_wait_like_kernel_launches_on_the_default_stream():
    stream = kaji.stream()
    x = kaji.to_device(np.ones(128, np.float32))
    out = kaji.to_device(np.zeros(128, np.float32))
    with kaji.graph(stream) as g:
        add_scaled[1, 128, stream](out, np.float32(2), x)
    g.launch()
    kaji.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), 2)

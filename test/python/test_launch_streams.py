"""What kernel[griddim, blockdim, stream] takes as its stream, checked without a GPU (the cpu
target reads the stream argument and runs synchronously)."""

import numpy as np
import pytest

import kaji


@kaji.jit(target="cpu")
def fill_index(out):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = i


class ProtocolStream:
    """A stream of another library, seen through the CUDA stream protocol."""

    def __cuda_stream__(self):
        return (0, 0x1234)


class TorchStyleStream:
    cuda_stream = 0x1234


class CupyStyleStream:
    ptr = 0x1234


@pytest.mark.parametrize("stream", [None, 0, ProtocolStream(), TorchStyleStream(),
                                    CupyStyleStream(), kaji.external_stream(0x1234)],
                         ids=["None", "zero", "protocol", "torch", "cupy", "external"])
def test_streams_kaji_accepts(stream):
    out = np.zeros(100, np.float32)
    fill_index[1, 128, stream](out)
    np.testing.assert_array_equal(out, np.arange(100, dtype=np.float32))


def test_a_non_stream_is_a_type_error_pointing_at_external_stream():
    with pytest.raises(TypeError, match=r"not 'str'.*kaji.external_stream"):
        fill_index[1, 128, "stream"](np.zeros(4, np.float32))


def test_malformed_cuda_stream_protocol_is_a_type_error():
    class Broken:
        def __cuda_stream__(self):
            return 0x1234

    with pytest.raises(TypeError, match="must return \\(version, stream handle\\)"):
        fill_index[1, 128, Broken()](np.zeros(4, np.float32))


def test_external_stream_wraps_a_handle_and_exports_the_protocol():
    stream = kaji.external_stream(0x1234)
    assert stream.handle == 0x1234
    assert stream.__cuda_stream__() == (0, 0x1234)
    assert kaji.external_stream(ProtocolStream()).handle == 0x1234
    assert kaji.cuda.external_stream is kaji.external_stream


def test_stream_handles_beyond_64_bits_are_value_errors_naming_them():
    class HugeProtocolStream:
        def __cuda_stream__(self):
            return (0, 2**64)

    class NegativeTorchStream:
        cuda_stream = -5

    for stream, value in [(HugeProtocolStream(), 2**64), (NegativeTorchStream(), -5)]:
        with pytest.raises(ValueError, match=f"stream handle {value} is out of range"):
            fill_index[1, 128, stream](np.zeros(4, np.float32))
    with pytest.raises(ValueError, match=f"stream handle {2**64} is out of range"):
        kaji.external_stream(2**64)


def test_a_huge_int_stream_is_a_type_error_pointing_at_external_stream():
    with pytest.raises(TypeError, match=r"not 'int'.*kaji.external_stream"):
        fill_index[1, 128, 2**64](np.zeros(4, np.float32))


@pytest.mark.parametrize("bad", ["0x1", -1, 1.5, True])
def test_external_stream_rejects_what_is_not_a_handle(bad):
    with pytest.raises(TypeError, match="CUstream handle"):
        kaji.external_stream(bad)


@pytest.mark.parametrize("bad", [2**64, 1.5, "s"])
def test_copies_take_what_a_launch_takes_as_stream_and_name_what_they_do_not(bad):
    host = np.arange(4, dtype=np.float32)
    array = kaji.to_device(host, stream=0)
    assert np.array_equal(array.copy_to_host(stream=None), host)
    message = f"stream must be a kaji stream.*not '{type(bad).__name__}'"
    with pytest.raises(TypeError, match=message):
        kaji.to_device(host, stream=bad)
    with pytest.raises(TypeError, match=message):
        array.copy_to_host(stream=bad)
    with pytest.raises(TypeError, match=message):
        array.copy_to_device(host, stream=bad)

"""The launch path's fast paths for CuPy arrays and PyTorch tensors, checked with stand-ins
(neither library is needed): the pointer, shape, strides, type and producer stream read from
the object must be what the general `__cuda_array_interface__` path reads from the same
object, and anything the fast path does not take must go through the protocol unchanged."""

import ctypes
import sys
import types

import numpy as np
import pytest

import kaji
from kaji import _core


def contiguous_strides(shape, itemsize):
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.insert(0, step)
        step *= max(extent, 1)
    return tuple(strides)


def is_c_contiguous(shape, strides, itemsize):
    if 0 in shape:
        return True
    expected = itemsize
    for extent, stride in zip(reversed(shape), reversed(strides)):
        if extent != 1 and stride != expected:
            return False
        expected *= extent
    return True


class ProtocolOnly:
    """The general path: an object with nothing but the interface another object exports."""

    def __init__(self, interface):
        self.__cuda_array_interface__ = interface


# --- CuPy ---------------------------------------------------------------------------------

class MemoryPointer:
    def __init__(self, ptr):
        self.ptr = ptr


class ndarray:  # noqa: N801 (CuPy's name: the fast path recognizes cupy.ndarray by it)
    """cupy.ndarray as the fast path reads it, with CuPy's __cuda_array_interface__."""

    interface_reads = 0

    def __init__(self, shape, dtype, strides=None, ptr=0x7000_0000):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.strides = tuple(strides) if strides else contiguous_strides(shape, self.dtype.itemsize)
        self.data = MemoryPointer(ptr)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape))

    @property
    def _c_contiguous(self):  # a readonly attribute of CuPy's arrays
        return is_c_contiguous(self.shape, self.strides, self.dtype.itemsize)

    @property
    def __cuda_array_interface__(self):
        ndarray.interface_reads += 1
        version = ndarray.modules.util.CUDA_ARRAY_INTERFACE_EXPORT_VERSION
        desc = {"shape": self.shape, "typestr": self.dtype.str, "descr": self.dtype.descr,
                "version": version}
        if version == 3:
            backends = sys.modules.get("cupy_backends.cuda.stream")
            default = backends.get_default_stream_ptr() if backends else 1
            desc["stream"] = ndarray.modules.cuda.get_current_stream().ptr or default
        elif version != 2:
            raise ValueError("CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION can only be set to 3 "
                             "(default) or 2")
        desc["strides"] = None if self._c_contiguous else self.strides
        size = int(np.prod(self.shape))
        desc["data"] = (self.data.ptr if size > 0 else 0, False)
        return desc


ndarray.__module__ = "cupy"


@pytest.fixture
def cupy_modules(monkeypatch):
    """cupy._util and cupy.cuda as the fast path looks them up in sys.modules."""
    if getattr(sys.modules.get("cupy"), "__file__", None):
        # The fast path keeps the first CuPy a process shows it (known_arrays.cpp): in a
        # process that ran the real one, the fake is not what it reads.
        pytest.skip("the real CuPy is loaded in this process")
    util = types.ModuleType("cupy._util")
    util.CUDA_ARRAY_INTERFACE_EXPORT_VERSION = 3
    cuda = types.ModuleType("cupy.cuda")
    cuda.current = types.SimpleNamespace(ptr=0)
    cuda.get_current_stream = lambda: cuda.current
    monkeypatch.setitem(sys.modules, "cupy._util", util)
    monkeypatch.setitem(sys.modules, "cupy.cuda", cuda)
    ndarray.interface_reads = 0
    ndarray.modules = types.SimpleNamespace(util=util, cuda=cuda)
    return ndarray.modules


CUPY_ARRAYS = {
    "1d": lambda: ndarray((1000,), np.float32),
    "2d C": lambda: ndarray((3, 4), np.int64),
    "2d F": lambda: ndarray((3, 4), np.float64, strides=(8, 24)),
    "strided": lambda: ndarray((5,), np.int16, strides=(6,)),
    "unit axes": lambda: ndarray((1, 3, 1), np.float32, strides=(400, 4, 100)),
    "empty": lambda: ndarray((0, 3), np.uint8),
    "0-d": lambda: ndarray((), np.float16),
    "bool": lambda: ndarray((7,), np.bool_),
}


@pytest.mark.parametrize("make", CUPY_ARRAYS.values(), ids=CUPY_ARRAYS.keys())
@pytest.mark.parametrize("stream", [0, 0x5000], ids=["null stream", "created stream"])
def test_cupy_fast_path_reads_what_the_protocol_gives(cupy_modules, make, stream):
    cupy_modules.cuda.current.ptr = stream
    array = make()
    fast = _core.argument_view(array)
    assert ndarray.interface_reads == 0
    assert fast == _core.argument_view(ProtocolOnly(array.__cuda_array_interface__))
    assert fast["stream"] == (stream or 1)


def test_cupy_arrays_without_the_contiguity_flag_read_their_strides(cupy_modules):
    older = type("ndarray", (), {"__module__": "cupy", "dtype": np.dtype(np.float32),
                                 "shape": (3, 4), "strides": (4, 12),
                                 "data": MemoryPointer(0x1000)})()
    view = _core.argument_view(older)
    assert view["strides"] == (4, 12) and view["type"] == "array<f32, 2, F>"


def test_cupy_null_stream_is_exported_as_cupys_default_stream(cupy_modules, monkeypatch):
    backends = types.ModuleType("cupy_backends.cuda.stream")
    backends.get_default_stream_ptr = lambda: 2  # CuPy with per-thread default streams
    monkeypatch.setitem(sys.modules, "cupy_backends.cuda.stream", backends)
    array = ndarray((4,), np.float32)
    view = _core.argument_view(array)
    assert view["stream"] == 2 and ndarray.interface_reads == 0
    assert view == _core.argument_view(ProtocolOnly(array.__cuda_array_interface__))


CURRENT_STREAM_FUNCTION = ctypes.CFUNCTYPE(ctypes.c_ssize_t)


def stream_module_exporting(function, signature):
    """cupy_backends.cuda.stream as Cython builds it: its C functions in __pyx_capi__, as
    capsules named by their C signature."""
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    backends = types.ModuleType("cupy_backends.cuda.stream")
    backends.signature = signature  # the capsule keeps a pointer to its name
    backends.function = function
    backends.__pyx_capi__ = {"get_current_stream_ptr": new_capsule(
        ctypes.cast(function, ctypes.c_void_p), signature, None)}
    backends.get_default_stream_ptr = lambda: 1
    return backends


def test_cupy_current_stream_is_asked_of_cupys_c_function(cupy_modules, monkeypatch):
    backends = stream_module_exporting(CURRENT_STREAM_FUNCTION(lambda: 0x5000), b"intptr_t (void)")
    monkeypatch.setitem(sys.modules, "cupy_backends.cuda.stream", backends)
    cupy_modules.cuda.get_current_stream = lambda: pytest.fail("the Python function was asked")
    view = _core.argument_view(ndarray((4,), np.float32))
    assert view["stream"] == 0x5000 and ndarray.interface_reads == 0


def test_cupy_c_function_of_another_signature_is_not_called(cupy_modules, monkeypatch):
    backends = stream_module_exporting(
        CURRENT_STREAM_FUNCTION(lambda: pytest.fail("called")), b"intptr_t (int)")
    monkeypatch.setitem(sys.modules, "cupy_backends.cuda.stream", backends)
    cupy_modules.cuda.current.ptr = 0x6000
    view = _core.argument_view(ndarray((4,), np.float32))
    assert view["stream"] == 0x6000 and ndarray.interface_reads == 0


def test_cupy_fast_path_follows_a_class_that_changes(cupy_modules):
    def pointing_at(ptr):
        return property(lambda self: MemoryPointer(ptr), lambda self, value: None)

    changing = type("ndarray", (ndarray,), {"__module__": "cupy", "data": pointing_at(0x1000)})
    array = changing((4,), np.float32)
    assert _core.argument_view(array)["data"] == 0x1000
    changing.data = pointing_at(0x2000)
    assert _core.argument_view(array)["data"] == 0x2000
    assert ndarray.interface_reads == 0


def test_cupy_exporting_version_2_gives_no_stream(cupy_modules):
    cupy_modules.util.CUDA_ARRAY_INTERFACE_EXPORT_VERSION = 2
    view = _core.argument_view(ndarray((4,), np.float32))
    assert view["stream"] is None and ndarray.interface_reads == 0


def test_cupy_bad_export_version_is_the_protocols_error(cupy_modules):
    cupy_modules.util.CUDA_ARRAY_INTERFACE_EXPORT_VERSION = 7
    with pytest.raises(ValueError, match="EXPORT_VERSION can only be set to 3"):
        kaji.typeof(ndarray((4,), np.float32), "cuda")


def test_cupy_without_its_modules_loaded_goes_through_the_protocol(monkeypatch, cupy_modules):
    monkeypatch.delitem(sys.modules, "cupy.cuda")
    array = ndarray((4,), np.float32)
    view = _core.argument_view(array)
    assert ndarray.interface_reads == 1
    assert view == _core.argument_view(ProtocolOnly(array.__cuda_array_interface__))


def test_cupy_subclasses_go_through_the_protocol(cupy_modules):
    class Sub(ndarray):
        pass

    assert kaji.typeof(Sub((4,), np.float32), "cuda") == kaji.float32[::1]
    assert ndarray.interface_reads == 1


def test_cupy_unsupported_dtype_is_the_protocols_error(cupy_modules):
    with pytest.raises(TypeError, match="'>c8' is not supported"):
        kaji.typeof(ndarray((4,), np.dtype(">c8")), "cuda")
    assert ndarray.interface_reads == 1


def test_cupy_arrays_of_absurd_size_are_value_errors(cupy_modules):
    with pytest.raises(ValueError, match="too large"):
        kaji.typeof(ndarray((2**40, 2**40), np.float32), "cuda")


# --- PyTorch ------------------------------------------------------------------------------

class TorchDtype:
    def __init__(self, name, numpy_dtype):
        self.name, self.itemsize = name, np.dtype(numpy_dtype).itemsize
        self.typestr = np.dtype(numpy_dtype).str

    def __str__(self):
        return "torch." + self.name


TORCH_DTYPES = {name: TorchDtype(name, name) for name in
                ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                 "bool"]}
TORCH_DTYPES["bfloat16"] = TorchDtype("bfloat16", np.uint16)
TORCH_DTYPES["bfloat16"].typestr = "<V2"  # torch's, the same as ml_dtypes.bfloat16's
STRIDED, SPARSE_COO = object(), object()


class Tensor:
    """torch.Tensor as the fast path reads it, with PyTorch's __cuda_array_interface__."""

    interface_reads = 0

    def __init__(self, shape, dtype="float32", strides=None, ptr=0x9000_0000, is_cuda=True,
                 requires_grad=False, layout=STRIDED):
        self.shape, self.dtype = tuple(shape), TORCH_DTYPES[dtype]
        self._strides = tuple(strides) if strides else contiguous_strides(shape, 1)
        self._ptr, self.is_cuda, self.requires_grad = ptr, is_cuda, requires_grad
        self.layout = layout

    def stride(self):
        if self.layout is not STRIDED:
            raise RuntimeError("sparse tensors do not have strides")
        return self._strides

    def data_ptr(self):
        if self.layout is not STRIDED:
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        return self._ptr

    @property
    def __cuda_array_interface__(self):  # torch/_tensor.py, as of PyTorch 2.x
        Tensor.interface_reads += 1
        if not self.is_cuda:
            raise AttributeError("Can't get __cuda_array_interface__ on non-CUDA tensor type")
        if self.layout is not STRIDED:
            raise AttributeError("Can't get __cuda_array_interface__ on sparse type")
        if self.requires_grad:
            raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires "
                               "grad.")
        itemsize = self.dtype.itemsize
        contiguous = is_c_contiguous(self.shape, self._strides, 1)
        strides = None if contiguous else tuple(s * itemsize for s in self._strides)
        data_ptr = self._ptr if int(np.prod(self.shape)) > 0 else 0
        return dict(typestr=self.dtype.typestr, shape=self.shape, strides=strides,
                    data=(data_ptr, False), version=2)


Tensor.__module__ = "torch"


@pytest.fixture
def torch_module():
    Tensor.interface_reads = 0


TENSORS = {
    "1d": lambda: Tensor((1000,)),
    "2d": lambda: Tensor((3, 4), "int32"),
    "transposed": lambda: Tensor((4, 3), "float64", strides=(1, 4)),
    "sliced": lambda: Tensor((5,), "int16", strides=(3,)),
    "unit axes": lambda: Tensor((1, 3, 1), "float16", strides=(100, 1, 7)),
    "empty": lambda: Tensor((0,), "uint8"),
    "bool": lambda: Tensor((7,), "bool"),
    "bfloat16": lambda: Tensor((2, 3), "bfloat16"),
}


@pytest.mark.parametrize("make", TENSORS.values(), ids=TENSORS.keys())
def test_torch_fast_path_reads_what_the_protocol_gives(torch_module, make):
    tensor = make()
    fast = _core.argument_view(tensor)
    assert Tensor.interface_reads == 0
    assert fast == _core.argument_view(ProtocolOnly(tensor.__cuda_array_interface__))
    assert fast["stream"] is None


@pytest.mark.parametrize("tensor, error, message", [
    (lambda: Tensor((4,), requires_grad=True), RuntimeError, "requires grad"),
    (lambda: Tensor((4,), is_cuda=False), TypeError, "unsupported type 'Tensor'"),
    (lambda: Tensor((4,), layout=SPARSE_COO), TypeError, "unsupported type 'Tensor'"),
], ids=["requires grad", "on the cpu", "sparse"])
def test_tensors_the_fast_path_does_not_take_get_the_protocols_error(torch_module, tensor, error,
                                                                     message):
    with pytest.raises(error, match=message):
        kaji.typeof(tensor(), "cuda")
    assert Tensor.interface_reads == 1


# --- PyTorch's DLPack C exchange API ------------------------------------------------------

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


TENSOR_FROM_OBJECT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(DLTensor))


class DLPackExchangeAPI(ctypes.Structure):  # dlpack.h v1.2
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("prev_api", ctypes.c_void_p), ("managed_tensor_allocator", ctypes.c_void_p),
                ("managed_tensor_from_py_object_no_sync", ctypes.c_void_p),
                ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
                ("dltensor_from_py_object_no_sync", TENSOR_FROM_OBJECT),
                ("current_work_stream", ctypes.c_void_p)]


DLPACK_CODES = {"i": 0, "u": 1, "f": 2, "V": 4, "c": 5, "b": 6}  # "V": bfloat16's typestr


def describe(tensor, out):
    """PyTorch's dltensor_from_py_object_no_sync, for the stand-in: the tensor's own fields."""
    tensor.exchange_calls += 1
    if tensor.layout is not STRIDED:
        return -1
    typestr = tensor.dtype.typestr
    tensor.dl_shape = (ctypes.c_int64 * len(tensor.shape))(*tensor.shape)
    tensor.dl_strides = (ctypes.c_int64 * len(tensor.shape))(*tensor._strides)
    described = out.contents
    described.data = tensor._ptr - 16
    described.byte_offset = 16
    described.device = DLDevice(2 if tensor.is_cuda else 1, 0)
    described.ndim = len(tensor.shape)
    described.dtype = DLDataType(DLPACK_CODES[typestr[1]], 8 * int(typestr[2:]), 1)
    described.shape = tensor.dl_shape
    described.strides = tensor.dl_strides
    return 0


def exchange_api_capsule(major=1):
    api = DLPackExchangeAPI(major=major, minor=2,
                            dltensor_from_py_object_no_sync=TENSOR_FROM_OBJECT(describe))
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    capsule = new_capsule(ctypes.addressof(api), CAPSULE_NAME, None)
    EXCHANGE_APIS.append(api)  # the table outlives the capsule, as a library's does
    return capsule


CAPSULE_NAME = b"dlpack_exchange_api"
EXCHANGE_APIS = []


def exchanging_tensor_type(major=1):
    """torch.Tensor of PyTorch 2.10+, which exports the exchange API as a class attribute."""
    return type("Tensor", (Tensor,), {"__module__": "torch", "exchange_calls": 0,
                                      "__dlpack_c_exchange_api__": exchange_api_capsule(major)})


@pytest.mark.parametrize("make", TENSORS.values(), ids=TENSORS.keys())
def test_torch_exchange_api_reads_what_the_protocol_gives(torch_module, make):
    exchanging = exchanging_tensor_type()
    tensor = make()
    tensor.__class__ = exchanging
    fast = _core.argument_view(tensor)
    assert tensor.exchange_calls == 1 and Tensor.interface_reads == 0
    assert fast == _core.argument_view(ProtocolOnly(tensor.__cuda_array_interface__))


@pytest.mark.parametrize("tensor, error, message", [
    (lambda: Tensor((4,), requires_grad=True), RuntimeError, "requires grad"),
    (lambda: Tensor((4,), is_cuda=False), TypeError, "unsupported type 'Tensor'"),
    (lambda: Tensor((4,), layout=SPARSE_COO), TypeError, "unsupported type 'Tensor'"),
], ids=["requires grad", "on the cpu", "sparse"])
def test_tensors_the_exchange_api_does_not_take_get_the_protocols_error(torch_module, tensor,
                                                                        error, message):
    refused = tensor()
    refused.__class__ = exchanging_tensor_type()
    with pytest.raises(error, match=message):
        kaji.typeof(refused, "cuda")
    assert Tensor.interface_reads == 1


def test_an_exchange_api_of_another_major_version_is_not_called(torch_module):
    tensor = Tensor((3, 4), "int32")
    tensor.__class__ = exchanging_tensor_type(major=2)
    fast = _core.argument_view(tensor)
    assert tensor.exchange_calls == 0 and Tensor.interface_reads == 0
    assert fast == _core.argument_view(ProtocolOnly(tensor.__cuda_array_interface__))


# --- the real libraries, on the GPU machine ----------------------------------------------

def real_views(arrays):
    """(fast path, protocol) views of each array; the protocol's read from a plain object."""
    return [(_core.argument_view(array),
             _core.argument_view(ProtocolOnly(array.__cuda_array_interface__)))
            for array in arrays]


@pytest.mark.gpu
def test_real_cupy_arrays_read_as_the_protocol_gives_them():
    cupy = pytest.importorskip("cupy")
    base = cupy.arange(24, dtype=cupy.float32).reshape(4, 6)
    arrays = [base, base.T, base[:, ::2], base[1:2], cupy.zeros((0, 3), cupy.int16),
              cupy.ones((1, 5, 1), cupy.uint8)[:, ::2], cupy.asfortranarray(base)]
    for fast, protocol in real_views(arrays):
        assert fast == protocol
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        for fast, protocol in real_views([base]):
            assert fast == protocol and fast["stream"] == stream.ptr


@pytest.mark.gpu
def test_real_torch_tensors_read_as_the_protocol_gives_them():
    torch = pytest.importorskip("torch")
    base = torch.arange(24, dtype=torch.float32, device="cuda").reshape(4, 6)
    tensors = [base, base.T, base[:, ::2], base[1:2], torch.zeros((0, 3), device="cuda"),
               torch.ones((1, 5, 1), dtype=torch.int64, device="cuda").expand(3, 5, 1),
               base.half(), base.bool()]
    for fast, protocol in real_views(tensors):
        assert fast == protocol
    with pytest.raises(RuntimeError, match="requires grad"):
        kaji.typeof(torch.ones(3, device="cuda", requires_grad=True), "cuda")
    with pytest.raises(TypeError, match="__dlpack__ refused to export it: .*layout"):
        kaji.typeof(torch.ones(3, device="cuda").to_sparse(), "cuda")
    with pytest.raises(TypeError):
        kaji.typeof(torch.ones(3), "cuda")

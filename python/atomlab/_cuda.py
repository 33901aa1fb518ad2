"""The CUDA driver through ctypes, for the context atomlab's CUDA calls take: each device's primary context, the
one PyTorch and CuPy use, retained once per process."""
import ctypes
import threading

_driver = None
_primary = {}
_lock = threading.Lock()
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9


def _cu():
    global _driver
    if _driver is None:
        try:
            _driver = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise RuntimeError(f"atomlab: a CUDA array, but no CUDA driver: {e}") from None
        _driver.cuInit(0)
    return _driver


def _ok(rc, what):
    if rc != 0:
        raise RuntimeError(f"atomlab: {what} failed: CUresult {rc}")


def primary_context(ordinal):
    """Device @ordinal's primary context (a CUcontext as an int)."""
    with _lock:
        if ordinal not in _primary:
            cu = _cu()
            dev, ctx = ctypes.c_int(), ctypes.c_void_p()
            _ok(cu.cuDeviceGet(ctypes.byref(dev), ordinal), "cuDeviceGet")
            _ok(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
            _primary[ordinal] = ctx.value
        return _primary[ordinal]


def ordinal_of(ptr):
    """The device a CUDA pointer lives on."""
    cu = _cu()
    ordinal = ctypes.c_int()
    _ok(cu.cuPointerGetAttribute(ctypes.byref(ordinal), CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ctypes.c_uint64(ptr)),
        "cuPointerGetAttribute")
    return ordinal.value

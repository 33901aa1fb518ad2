"""ctypes over libatomlab.so.1 (include/atomlab/context.h, scatter.h, histogram.h): found once, nothing compiled."""
import ctypes
import ctypes.util
import os
import threading

MAJOR = 1

# include/atomlab/error.h: ATL__ERR_BASE = -1000, then the codes in ATL_ERRNO_MAP's order
ERRORS = ["EINVAL", "ENOMEM", "ENODEV", "ENOTSUP", "EBACKEND", "EBUILD", "EIO", "EVERIFY", "EDEADLOCK",
          "ERANGE", "EINTR"]
ERR = {name: -999 + i for i, name in enumerate(ERRORS)}

# enum atl_scatter_type / atl_scatter_method / atl_scatter_keys
TYPES = {"f32": 0, "u32": 1, "i32": 2, "bf16": 3, "f16": 4}
METHODS = ["auto", "atomic", "run", "block", "bins", "part", "part1", "dsm", "sweep", "bucket"]
KEYS = ["sample", "spread", "head", "runs"]


class ScatterDesc(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("index_bytes", ctypes.c_uint), ("rows", ctypes.c_uint64),
                ("targets", ctypes.c_uint64), ("dim", ctypes.c_uint32), ("deterministic", ctypes.c_int),
                ("keys", ctypes.c_int), ("method", ctypes.c_int), ("unchecked_keys", ctypes.c_int)]


class HistogramDesc(ctypes.Structure):
    _fields_ = [("bytes", ctypes.c_uint64), ("bin_bytes", ctypes.c_uint)]


class DeviceInfo(ctypes.Structure):
    """The head of struct atl_device_info (device.h): only read through a pointer, never allocated here."""
    _fields_ = [("id", ctypes.c_char * 32), ("backend", ctypes.c_char * 16), ("platform", ctypes.c_char * 128),
                ("name", ctypes.c_char * 128)]


def _candidates():
    env = os.environ.get("ATOMLAB_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "lib", "libatomlab.so.1")
    # a checkout's build folder, for running from python/ without installing
    yield os.path.join(here, "..", "..", "build", "libatomlab.so.1")
    found = ctypes.util.find_library("atomlab")
    if found:
        yield found
    yield "libatomlab.so.1"


_lib = None
_lock = threading.Lock()


def lib():
    """The loaded library, its functions typed (once per process)."""
    global _lib
    with _lock:
        if _lib is None:
            errors = []
            for path in _candidates():
                if os.sep in path and not os.path.exists(path):
                    continue
                try:
                    _lib = _declare(ctypes.CDLL(path))
                    break
                except OSError as e:
                    errors.append(f"{path}: {e}")
            if _lib is None:
                raise ImportError("atomlab: libatomlab.so.1 not found (pip install ./python builds it; or set "
                                  "ATOMLAB_LIBRARY): " + "; ".join(errors))
            if _lib.atl_version() // 10000 != MAJOR:
                version = _lib.atl_version_string().decode()
                _lib = None
                raise ImportError(f"atomlab: libatomlab {version} is not of major version {MAJOR}")
    return _lib


def _declare(L):
    c = ctypes
    vp, i, sz = c.c_void_p, c.c_int, c.c_size_t
    table = {
        "atl_version": (c.c_uint, []),
        "atl_version_string": (c.c_char_p, []),
        "atl_strerror": (c.c_char_p, [i]),
        "atl_context_new": (i, [c.POINTER(vp)]),
        "atl_context_free": (None, [vp]),
        "atl_device_open": (i, [vp, c.c_char_p, c.c_char_p]),
        "atl_device_current": (c.POINTER(DeviceInfo), [vp]),
        "atl_errmsg": (c.c_char_p, [vp]),
        "atl_context_from_cuda": (i, [vp, vp, c.c_uint, c.POINTER(vp)]),
        "atl_context_from_opencl": (i, [vp, vp, vp, c.c_uint, c.POINTER(vp)]),
        "atl_context_finish": (i, [vp]),
        "atl_context_set_queue": (i, [vp, vp]),
        "atl_buffer_new": (i, [vp, sz, c.POINTER(vp)]),
        "atl_buffer_write": (i, [vp, vp, vp, sz]),
        "atl_buffer_read": (i, [vp, vp, vp, sz]),
        "atl_buffer_free": (None, [vp, vp]),
        "atl_buffer_wrap_cuda": (i, [vp, c.c_uint64, sz, c.POINTER(vp)]),
        "atl_scatter_add": (i, [vp, c.POINTER(ScatterDesc), vp, vp, vp, c.POINTER(c.c_double)]),
        "atl_scatter_method_for": (i, [vp, c.POINTER(ScatterDesc), vp, c.POINTER(c.c_int)]),
        "atl_histogram": (i, [vp, c.POINTER(HistogramDesc), vp, vp, c.POINTER(c.c_double)]),
    }
    for name, (res, args) in table.items():
        f = getattr(L, name)
        f.restype, f.argtypes = res, args
    return L


class Error(RuntimeError):
    """A failure of the library (its code's name and the context's message)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def check(ctx, err, what):
    """Raises for a negative code: ValueError for a bad argument or a key out of range, else Error."""
    if err == 0:
        return
    L = lib()
    detail = (L.atl_errmsg(ctx) or b"").decode(errors="replace") if ctx else ""
    message = f"{what}: {detail or L.atl_strerror(err).decode()}"
    if err in (ERR["EINVAL"], ERR["ERANGE"]):
        raise ValueError(message)
    raise Error(err, message)


class Context:
    """An atomlab context (one per thread: include/atomlab/context.h); freed with the object."""

    def __init__(self, handle):
        self.handle = handle

    def __del__(self):
        if self.handle and _lib is not None:
            _lib.atl_context_free(self.handle)
            self.handle = None

    @classmethod
    def open(cls, device=None, backend=None):
        L = lib()
        h = ctypes.c_void_p()
        err = L.atl_context_new(ctypes.byref(h))
        if err:
            raise MemoryError("atomlab: no context")
        ctx = cls(h)
        err = L.atl_device_open(h, device.encode() if device else None, backend.encode() if backend else None)
        check(h, err, "atomlab: opening a device")
        return ctx

    @classmethod
    def cuda(cls, cu_context, cu_stream):
        L = lib()
        h = ctypes.c_void_p()
        err = L.atl_context_from_cuda(ctypes.c_void_p(cu_context), ctypes.c_void_p(cu_stream), 0, ctypes.byref(h))
        ctx = cls(h) if h.value else None
        check(h, err, "atomlab: the CUDA context")
        return ctx

    def device(self):
        info = lib().atl_device_current(self.handle)
        if not info:
            return None
        d = info.contents
        return {"id": d.id.decode(), "backend": d.backend.decode(), "platform": d.platform.decode(),
                "name": d.name.decode()}


_local = threading.local()


def default_context():
    """The thread's context on the best OpenCL-or-other device (atomlab.open changes it)."""
    ctx = getattr(_local, "default", None)
    if ctx is None:
        ctx = Context.open(os.environ.get("ATOMLAB_DEVICE") or None, os.environ.get("ATOMLAB_BACKEND") or None)
        _local.default = ctx
    return ctx


def set_default_context(ctx):
    _local.default = ctx


def cuda_context(cu_context, cu_stream):
    """The thread's context over a CUDA context, moved to @cu_stream (the old stream's work first, on the device):
    one per device and thread, its kernels and scratch kept for every stream."""
    cache = getattr(_local, "cuda", None)
    if cache is None:
        cache = _local.cuda = {}
    ctx = cache.get(cu_context)
    if ctx is None:
        ctx = cache[cu_context] = Context.cuda(cu_context, cu_stream)
        ctx.stream = cu_stream
    elif ctx.stream != cu_stream:
        check(ctx.handle, lib().atl_context_set_queue(ctx.handle, ctx_stream(cu_stream)), "atomlab: the stream")
        ctx.stream = cu_stream
    return ctx


def cuda_contexts():
    """The thread's contexts over CUDA contexts (cuda_context's)."""
    return list(getattr(_local, "cuda", {}).values())


def ctx_stream(cu_stream):
    return ctypes.c_void_p(cu_stream or None)

"""atomlab for Python: scatter-add, bincount and the byte histogram on NumPy arrays (through an OpenCL device, PoCL
on a CPU) and, in place and on the current stream, on CUDA arrays of PyTorch and CuPy (docs/guide/python.md).
ctypes over the C library libatomlab.so.1: nothing is compiled at import time. PyTorch ops: `import atomlab.torch`."""
import ctypes

import numpy as np

from . import _lib
from ._lib import Error
from ._load import load

__all__ = ["scatter_add", "bincount", "histogram", "synchronize", "load", "open", "version", "device", "Error"]


def version():
    """The C library's version, "1.0.0"."""
    return _lib.lib().atl_version_string().decode()


def open(device=None, backend=None):
    """Opens @device (an id of `atomlab devices`, or None: the best) of @backend for this thread's NumPy calls."""
    ctx = _lib.Context.open(device, backend)
    _lib.set_default_context(ctx)
    return ctx.device()


def device():
    """The device this thread's NumPy calls run on (opened on first use)."""
    return _lib.default_context().device()


# the dtypes atomlab adds, by NumPy name (bfloat16: PyTorch's only)
_VALUE_TYPES = {"float32": "f32", "uint32": "u32", "int32": "i32", "float16": "f16", "bfloat16": "bf16"}
_INDEX_BYTES = {"int32": 4, "uint32": 4, "int64": 8}
_CAI_TYPES = {"|u1": "uint8", "<f4": "float32", "<u4": "uint32", "<i4": "int32", "<f2": "float16", "<i8": "int64",
              "<u8": "uint64", "<f8": "float64"}


class _View:
    """An array's memory as the library takes it: host (NumPy) or CUDA (PyTorch, CuPy, __cuda_array_interface__)."""

    def __init__(self, a, name):
        self.obj, self.name = a, name
        mod = type(a).__module__.split(".")[0]
        if isinstance(a, np.ndarray):
            self.kind, self.dtype, self.shape = "host", a.dtype.name, tuple(a.shape)
            self.contiguous = a.flags.c_contiguous
        elif mod == "torch":
            self.dtype = str(a.dtype).replace("torch.", "")
            self.shape = tuple(a.shape)
            self.contiguous = a.is_contiguous()
            if a.device.type == "cuda":
                self.kind, self.ptr, self.ordinal = "cuda", a.data_ptr(), a.device.index or 0
            elif a.device.type == "cpu":
                self.kind = "host"
            else:
                raise ValueError(f"{name}: a tensor on {a.device}: allowed: cuda or cpu")
        elif hasattr(a, "__cuda_array_interface__"):
            cai = a.__cuda_array_interface__
            self.kind, self.ptr = "cuda", cai["data"][0]
            self.shape = tuple(cai["shape"])
            self.dtype = _CAI_TYPES.get(cai["typestr"], cai["typestr"])
            item = np.dtype(cai["typestr"]).itemsize
            want = tuple(int(np.prod(self.shape[i + 1:], dtype=np.int64)) * item for i in range(len(self.shape)))
            self.contiguous = cai.get("strides") in (None, want)
            self.ordinal = getattr(getattr(a, "device", None), "id", None)
            self.stream = cai.get("stream")
        else:
            raise ValueError(f"{name}: a {type(a).__name__}: allowed: a NumPy array, a PyTorch tensor or a CUDA array "
                             "with __cuda_array_interface__ (CuPy)")
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * _itemsize(self.dtype)

    def host(self):
        """The NumPy array (a CPU tensor's shares its memory)."""
        a = self.obj
        return a if isinstance(a, np.ndarray) else a.detach().numpy()


def _itemsize(dtype):
    return {"uint8": 1, "float16": 2, "bfloat16": 2, "int64": 8, "uint64": 8, "float64": 8}.get(dtype, 4)


def _desc(out, index, src, deterministic, method, keys):
    """The descriptor of a scatter-add, every argument checked: ValueError naming it, before anything is written."""
    if out.kind != index.kind or out.kind != src.kind:
        raise ValueError("out, index, src: all on the host (NumPy) or all on one CUDA device")
    if index.dtype not in _INDEX_BYTES or len(index.shape) != 1:
        raise ValueError(f"index: {index.dtype} of shape {index.shape}: allowed: one dimension of int32, uint32 or "
                         "int64")
    if out.dtype not in _VALUE_TYPES or src.dtype != out.dtype:
        raise ValueError(f"src, out: {src.dtype} into {out.dtype}: allowed: the same type, one of "
                         + ", ".join(_VALUE_TYPES))
    if len(out.shape) < 1 or len(src.shape) != len(out.shape) or src.shape[1:] != out.shape[1:]:
        raise ValueError(f"src, out: shapes {src.shape} and {out.shape}: allowed: (E, ...) into (V, ...), the same "
                         "trailing dimensions")
    if src.shape[0] != index.shape[0]:
        raise ValueError(f"index: {index.shape[0]} keys for {src.shape[0]} rows of src: allowed: one key a row")
    dim = int(np.prod(out.shape[1:], dtype=np.int64))
    if not 1 <= dim <= 512:
        raise ValueError(f"out: {dim} values a row: allowed: 1 to 512")
    if not 1 <= out.shape[0] < 2 ** 32:
        raise ValueError(f"out: {out.shape[0]} rows: allowed: 1 to 2^32 - 1")
    if method not in _lib.METHODS:
        raise ValueError(f"method: {method!r}: allowed: " + ", ".join(_lib.METHODS))
    if keys not in _lib.KEYS:
        raise ValueError(f"keys: {keys!r}: allowed: " + ", ".join(_lib.KEYS))
    if out.kind == "cuda" and not (out.contiguous and index.contiguous and src.contiguous):
        raise ValueError("out, index, src: CUDA arrays must be contiguous (row-major)")
    d = _lib.ScatterDesc()
    d.type = _lib.TYPES[_VALUE_TYPES[out.dtype]]
    d.index_bytes = _INDEX_BYTES[index.dtype]
    d.rows, d.targets, d.dim = src.shape[0], out.shape[0], dim
    d.deterministic = 1 if deterministic else 0
    d.keys, d.method = _lib.KEYS.index(keys), _lib.METHODS.index(method)
    return d


def _host_scatter(d, out, index, src):
    """On the thread's device: copies in, the scatter-add, the sums back into out (its memory, in place)."""
    o, i, s = out.host(), index.host(), src.host()
    keys = np.asarray(i)
    if keys.size and (keys.min() < 0 or keys.max() >= d.targets):
        raise ValueError(f"index: keys from {keys.min()} to {keys.max()}: allowed: 0 to {d.targets - 1} (the rows "
                         "of out)")
    ctx = _lib.default_context()
    L, h = _lib.lib(), ctx.handle
    arrays = [np.ascontiguousarray(o), np.ascontiguousarray(keys), np.ascontiguousarray(s)]
    bufs = [ctypes.c_void_p() for _ in arrays]
    try:
        for a, b in zip(arrays, bufs):
            _lib.check(h, L.atl_buffer_new(h, max(a.nbytes, 4), ctypes.byref(b)), "atomlab: a device buffer")
            _lib.check(h, L.atl_buffer_write(h, b, a.ctypes.data, a.nbytes), "atomlab: writing a buffer")
        _lib.check(h, L.atl_scatter_add(h, ctypes.byref(d), bufs[0], bufs[2], bufs[1], None), "atomlab: scatter_add")
        result = np.empty_like(arrays[0])
        _lib.check(h, L.atl_buffer_read(h, bufs[0], result.ctypes.data, result.nbytes), "atomlab: reading out")
    finally:
        for b in bufs:
            if b.value:
                L.atl_buffer_free(h, b)
    o[...] = result


def _cuda_stream(view):
    """The current stream of the array's library on its device (CUstream), as the library's own ops use it."""
    mod = type(view.obj).__module__.split(".")[0]
    if mod == "torch":
        import torch
        return torch.cuda.current_stream(view.obj.device).cuda_stream
    if mod == "cupy":
        import cupy
        return cupy.cuda.get_current_stream().ptr
    s = getattr(view, "stream", None)
    return 0 if s in (None, 1) else s  # 1: the legacy default stream (__cuda_array_interface__ v3)


def _cuda_scatter(d, out, index, src):
    """On the array's CUDA device and current stream, in place, enqueued without a wait."""
    from . import _cuda
    ordinal = out.ordinal if out.ordinal is not None else _cuda.ordinal_of(out.ptr)
    ctx = _lib.cuda_context(_cuda.primary_context(ordinal), _cuda_stream(out))
    L, h = _lib.lib(), ctx.handle
    views = [out, index, src]
    bufs = [ctypes.c_void_p() for _ in views]
    try:
        for v, b in zip(views, bufs):
            _lib.check(h, L.atl_buffer_wrap_cuda(h, v.ptr, v.nbytes, ctypes.byref(b)), f"atomlab: {v.name}")
        _lib.check(h, L.atl_scatter_add(h, ctypes.byref(d), bufs[0], bufs[2], bufs[1], None), "atomlab: scatter_add")
    finally:
        for b in bufs:
            if b.value:
                L.atl_buffer_free(h, b)


def scatter_add(out, index, src, *, deterministic=False, method="auto", keys="sample"):
    """out[index[i]] += src[i] for every row i, in place (PyTorch's out.index_add_(0, index, src)); returns out.

    out (V, ...) and src (E, ...) of one type (float32, float16, bfloat16, int32, uint32) with the same trailing
    dimensions (1 to 512 values a row), index (E,) of int32, uint32 or int64 in [0, V). NumPy arrays run on the
    thread's device (atomlab.open; keys checked on the host first); CUDA arrays (PyTorch, CuPy) on their device
    and current stream, without copies or a wait. deterministic: bit-identical sums on every run. method: auto
    or one of atomlab's (docs/design/scatter.md); keys: what auto may assume of the keys instead of reading a sample
    (sample, spread, head, runs; a sample read waits for the stream). ValueError, nothing written, for bad
    shapes, types or keys; on CUDA arrays a key out of range is found on the device without a wait: out is left
    as it was and atomlab.synchronize() raises the ValueError naming its row.
    """
    views = _View(out, "out"), _View(index, "index"), _View(src, "src")
    d = _desc(*views, deterministic, method, keys)
    if d.rows == 0:
        return out
    if views[0].kind == "host":
        _host_scatter(d, *views)
    else:
        _cuda_scatter(d, *views)
    return out


def bincount(index, weights=None, minlength=0, *, length=None, deterministic=False, method="auto", keys="sample"):
    """Like numpy.bincount: counts (int64) of each key in index, or the sums of weights (float32, int32, uint32,
    float16, bfloat16: the result's type) by key, length max(index.max() + 1, minlength), or exactly @length
    (no look at the keys: on CUDA no wait). NumPy, PyTorch or CuPy, as scatter_add."""
    v = _View(index, "index")
    if v.dtype not in _INDEX_BYTES or len(v.shape) != 1:
        raise ValueError(f"index: {v.dtype} of shape {v.shape}: allowed: one dimension of int32, uint32 or int64")
    n = v.shape[0]
    if length is None:
        top = int(index.max()) + 1 if n else 0
        length = max(top, int(minlength))
    if length < 1:
        length = 1
    mod = type(index).__module__.split(".")[0]
    xp = _namespace(index)
    if weights is None:
        ones = xp.ones(n, dtype=xp.int32) if mod != "torch" else xp.ones(n, dtype=xp.int32, device=index.device)
        counts = _zeros(xp, mod, length, xp.int32, index)
        scatter_add(counts, index, ones, deterministic=deterministic, method=method, keys=keys)
        return counts.astype(xp.int64) if mod != "torch" else counts.to(xp.int64)
    out = _zeros(xp, mod, length, weights.dtype, index)
    w = weights.reshape(n) if hasattr(weights, "reshape") else weights
    scatter_add(out, index, w, deterministic=deterministic, method=method, keys=keys)
    return out


def _namespace(a):
    mod = type(a).__module__.split(".")[0]
    if mod == "torch":
        import torch
        return torch
    if mod == "cupy":
        import cupy
        return cupy
    return np


def _zeros(xp, mod, n, dtype, like):
    return xp.zeros(n, dtype=dtype, device=like.device) if mod == "torch" else xp.zeros(n, dtype=dtype)


def synchronize():
    """Waits for the work atomlab enqueued on this thread's CUDA streams; ValueError naming the row where an
    operation since the last synchronize found a key out of range (that operation wrote nothing)."""
    for ctx in _lib.cuda_contexts():
        _lib.check(ctx.handle, _lib.lib().atl_context_finish(ctx.handle), "atomlab: synchronize")


def histogram(a):
    """The 256 counts (int64) of the bytes of a uint8 array (its bytes in C order), as
    numpy.bincount(a.ravel(), minlength=256). NumPy arrays run on the thread's device; CUDA arrays (PyTorch, CuPy)
    on their device and current stream, without a copy or a wait, the counts an array of their library there."""
    v = _View(a, "a")
    if v.dtype != "uint8":
        raise ValueError(f"a: {v.dtype}: allowed: uint8")
    if not v.contiguous:
        raise ValueError("a: not contiguous: allowed: a C-contiguous array")
    if v.kind == "host":
        return _host_histogram(v)
    xp, mod = _namespace(a), type(a).__module__.split(".")[0]
    counts = _zeros(xp, mod, 256, xp.int64, a)
    if v.nbytes == 0:
        return counts
    from . import _cuda
    ordinal = v.ordinal if v.ordinal is not None else _cuda.ordinal_of(v.ptr)
    ctx = _lib.cuda_context(_cuda.primary_context(ordinal), _cuda_stream(v))
    L, h = _lib.lib(), ctx.handle
    ptrs = [(v.ptr, v.nbytes), (_View(counts, "counts").ptr, 256 * 8)]
    bufs = [ctypes.c_void_p() for _ in ptrs]
    try:
        for (ptr, n), b in zip(ptrs, bufs):
            _lib.check(h, L.atl_buffer_wrap_cuda(h, ptr, n, ctypes.byref(b)), "atomlab: histogram")
        d = _lib.HistogramDesc(v.nbytes, 8)
        _lib.check(h, L.atl_histogram(h, ctypes.byref(d), bufs[1], bufs[0], None), "atomlab: histogram")
    finally:
        for b in bufs:
            if b.value:
                L.atl_buffer_free(h, b)
    return counts


def _host_histogram(v):
    """On the thread's device: the bytes copied in, 64-bit bins from zero, read back."""
    data = np.ascontiguousarray(v.host()).reshape(-1)
    counts = np.zeros(256, np.int64)
    if data.size == 0:
        return counts
    if data.size >= 2 ** 32:
        raise ValueError(f"a: {data.size} bytes: allowed: up to 2^32 - 1")
    ctx = _lib.default_context()
    L, h = _lib.lib(), ctx.handle
    bufs = [ctypes.c_void_p(), ctypes.c_void_p()]
    try:
        for (arr, b) in zip((data, counts), bufs):
            _lib.check(h, L.atl_buffer_new(h, arr.nbytes, ctypes.byref(b)), "atomlab: a device buffer")
            _lib.check(h, L.atl_buffer_write(h, b, arr.ctypes.data, arr.nbytes), "atomlab: writing a buffer")
        d = _lib.HistogramDesc(data.size, 8)
        _lib.check(h, L.atl_histogram(h, ctypes.byref(d), bufs[1], bufs[0], None), "atomlab: histogram")
        _lib.check(h, L.atl_buffer_read(h, bufs[1], counts.ctypes.data, counts.nbytes), "atomlab: reading the bins")
    finally:
        for b in bufs:
            if b.value:
                L.atl_buffer_free(h, b)
    return counts

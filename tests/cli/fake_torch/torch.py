"""A stand-in for PyTorch for tests/cli/scatter_shapes.sh: the calls scripts/gpu/scatter_shapes.py makes, in plain
Python on lists (tiny sizes only), so the peers' path runs where PyTorch is not installed. Every op really adds;
an op named in $FAKE_TORCH_FAIL raises as PyTorch would; $FAKE_TORCH_LOG collects "op deterministic" lines."""
import os
import struct
import time
from types import SimpleNamespace

__version__ = "0.0+fake"
float32, bfloat16, float16, int32, int64 = "float32", "bfloat16", "float16", "int32", "int64"
_DTYPES = {float32, bfloat16, float16, int32, int64}
_det = [False]


def _log(op):
    if op in os.environ.get("FAKE_TORCH_FAIL", "").split(","):
        raise RuntimeError(f"{op}: fake failure")
    if os.environ.get("FAKE_TORCH_LOG"):
        with open(os.environ["FAKE_TORCH_LOG"], "a") as f:
            f.write(f"{op} {int(_det[0])}\n")


class _Event:
    def __init__(self, enable_timing=False):
        self.t = None

    def record(self):
        self.t = time.perf_counter()

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3


cuda = SimpleNamespace(is_available=lambda: True, synchronize=lambda: None, empty_cache=lambda: None,
                       Event=_Event, get_device_properties=lambda i: SimpleNamespace(total_memory=1 << 40))


def device(name):
    return name


def use_deterministic_algorithms(on):
    _det[0] = bool(on)


class Tensor:
    def __init__(self, data, shape, dtype):
        self.data, self.shape, self.dtype = data, tuple(shape), dtype

    def _row(self, i):  # an expanded index's value at row i
        return self.data[i]

    def view(self, *shape):
        return Tensor(self.data, [len(self.data) if s == -1 else s for s in shape], self.dtype)

    def expand(self, *shape):
        return Tensor(self.data, shape, self.dtype)

    def to(self, what):
        return Tensor(list(self.data), self.shape, what) if what in _DTYPES else self

    def long(self):
        return self.to(int64)

    def __add__(self, x):
        return Tensor([v + x for v in self.data], self.shape, self.dtype)

    def zero_(self):
        self.data[:] = [0.0] * len(self.data)
        return self

    def _add_rows(self, op, idx, src):
        _log(op)
        D = self.shape[1] if len(self.shape) > 1 else 1
        assert src.shape[0] == idx.shape[0] and (len(src.shape) == 1 or src.shape[1] == D), (op, src.shape, D)
        for i in range(idx.shape[0]):
            k = idx._row(i)
            for c in range(D):
                self.data[k * D + c] += src.data[i * D + c]
        return self

    def index_add_(self, dim, idx, src):
        return self._add_rows("index_add_", idx, src)

    def scatter_add_(self, dim, idx, src):
        assert idx.shape == src.shape, ("scatter_add_", idx.shape, src.shape)
        return self._add_rows("scatter_add_", idx, src)

    def index_put_(self, indices, src, accumulate=False):
        assert accumulate
        return self._add_rows("index_put_", indices[0], src)

    def scatter_reduce_(self, dim, idx, src, reduce):
        assert reduce == "sum" and idx.shape == src.shape
        return self._add_rows("scatter_reduce_", idx, src)


def frombuffer(buf, dtype):
    assert dtype == int32
    return Tensor(list(struct.unpack(f"<{len(buf) // 4}i", bytes(buf))), [len(buf) // 4], dtype)


def zeros(*shape, dtype=float32, device=None):
    n = 1
    for s in shape:
        n *= s
    return Tensor([0.0] * n, shape, dtype)


def rand(*shape, device=None):
    import random
    t = zeros(*shape)
    t.data = [random.random() for _ in t.data]
    return t


def bincount(idx, weights=None, minlength=0):
    _log("bincount")
    out = zeros(max(minlength, max(idx.data) + 1))
    for k, w in zip(idx.data, weights.data):
        out.data[k] += w
    return out

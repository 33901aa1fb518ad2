"""atomlab on NumPy arrays, on the OpenCL device (PoCL on a CPU in CI): against np.add.at, the deterministic mode
bit for bit, and the errors that must leave the output untouched."""
import os

import numpy as np
import pytest

import atomlab
from conftest import DATA


def _case(rng, rows, targets, dim, dtype=np.float32, index_dtype=np.int64):
    index = rng.integers(0, targets, rows).astype(index_dtype)
    shape = (rows,) if dim == 0 else (rows, dim)
    if np.issubdtype(dtype, np.integer):
        src = rng.integers(0, 1000, shape).astype(dtype)
    else:
        src = rng.standard_normal(shape).astype(dtype)
    out = np.zeros((targets,) + shape[1:], dtype)
    return out, index, src


def _bound(index, src, targets):
    """The summation bound of each output value: (n - 1) u sum |x| over its rows, u = 2^-24 (f32)."""
    mag = np.zeros((targets,) + src.shape[1:], np.float64)
    np.add.at(mag, index, np.abs(src.astype(np.float64)))
    depth = np.bincount(index, minlength=targets).reshape((targets,) + (1,) * (src.ndim - 1))
    return np.maximum(depth - 1, 0) * 2.0 ** -24 * mag


@pytest.mark.parametrize("method", ["auto", "atomic", "run", "block", "part"])
@pytest.mark.parametrize("dim", [0, 1, 8, 64])
def test_float_matches_add_at(method, dim):
    rng = np.random.default_rng(dim + len(method))
    out, index, src = _case(rng, 5000, 300, dim)
    want = np.zeros(out.shape, np.float64)
    np.add.at(want, index, src.astype(np.float64))
    got = atomlab.scatter_add(out, index, src, method=method)
    assert got is out
    assert np.all(np.abs(out - want) <= _bound(index, src, 300) + 1e-30)


@pytest.mark.parametrize("index_dtype", [np.int32, np.uint32, np.int64])
@pytest.mark.parametrize("dtype", [np.int32, np.uint32])
def test_integers_exact(dtype, index_dtype):
    rng = np.random.default_rng(3)
    out, index, src = _case(rng, 4000, 77, 5, dtype, index_dtype)
    out += 7  # adds to what is there
    want = out.copy()
    np.add.at(want, index, src)
    atomlab.scatter_add(out, index, src)
    assert np.array_equal(out, want)


def test_deterministic_bit_identical():
    rng = np.random.default_rng(5)
    out, index, src = _case(rng, 20000, 500, 16)
    runs = []
    for _ in range(3):
        o = out.copy()
        atomlab.scatter_add(o, index, src, deterministic=True)
        runs.append(o)
    assert all(np.array_equal(r.view(np.uint32), runs[0].view(np.uint32)) for r in runs)
    want = np.zeros(out.shape, np.float64)
    np.add.at(want, index, src.astype(np.float64))
    assert np.all(np.abs(runs[0] - want) <= _bound(index, src, 500) + 1e-30)


def test_deterministic_keys_in_order_as_sorted():
    """Keys already in order launch no sort: their result is the bits the sort gives the same rows in that order.

    300000 rows cross groups of 64 tiles of 1024 (the hot key); the unsorted case goes through the radix passes."""
    rng = np.random.default_rng(11)
    out, index, src = _case(rng, 300000, 3000, 4)
    index[rng.random(index.size) < 0.5] = 17  # a hot key: half the rows
    order = np.argsort(index, kind="stable")
    shuffled = atomlab.scatter_add(out.copy(), index, src, deterministic=True)
    in_order = atomlab.scatter_add(out.copy(), np.ascontiguousarray(index[order]), np.ascontiguousarray(src[order]),
                                   deterministic=True)
    assert np.array_equal(in_order.view(np.uint32), shuffled.view(np.uint32))
    want = np.zeros(out.shape, np.float64)
    np.add.at(want, index, src.astype(np.float64))
    assert np.all(np.abs(in_order - want) <= _bound(index, src, 3000) + 1e-30)


def test_index_add_semantics_on_a_view():
    """A non-contiguous out (a column slice) is written in place, like index_add_ along dimension 0."""
    rng = np.random.default_rng(9)
    base = np.zeros((50, 8), np.float32)
    out = base[:, ::2]
    index = rng.integers(0, 50, 300)
    src = rng.integers(0, 5, (300, 4)).astype(np.float32)
    want = np.zeros((50, 4), np.float32)
    np.add.at(want, index, src)
    atomlab.scatter_add(out, index, src)
    assert np.array_equal(base[:, ::2], want) and not base[:, 1::2].any()


@pytest.mark.parametrize("bad", [-1, 300, 2 ** 40])
def test_out_of_range_keys_raise_untouched(bad):
    rng = np.random.default_rng(11)
    out, index, src = _case(rng, 1000, 300, 4)
    out[:] = 1.5
    index[500] = bad
    with pytest.raises(ValueError, match="index"):
        atomlab.scatter_add(out, index, src)
    assert np.all(out == 1.5)


@pytest.mark.parametrize("change", ["float64", "src_type", "index_float", "index_2d", "trailing", "rows", "dim",
                                    "method"])
def test_bad_types_and_shapes_raise_untouched(change):
    rng = np.random.default_rng(13)
    out, index, src = _case(rng, 100, 10, 4)
    kwargs = {}
    if change == "float64":
        out, src = out.astype(np.float64), src.astype(np.float64)
    elif change == "src_type":
        src = src.astype(np.int32)
    elif change == "index_float":
        index = index.astype(np.float32)
    elif change == "index_2d":
        index = index.reshape(50, 2)
    elif change == "trailing":
        src = src[:, :3].copy()
    elif change == "rows":
        index = index[:99]
    elif change == "dim":
        out, src = np.zeros((10, 513), np.float32), np.zeros((100, 513), np.float32)
    elif change == "method":
        kwargs["method"] = "fastest"
    before = out.copy()
    with pytest.raises(ValueError):
        atomlab.scatter_add(out, index, src, **kwargs)
    assert np.array_equal(out, before)


def test_bincount_matches_numpy():
    rng = np.random.default_rng(17)
    index = rng.integers(0, 1000, 30000)
    assert np.array_equal(atomlab.bincount(index), np.bincount(index))
    assert np.array_equal(atomlab.bincount(index, minlength=2000), np.bincount(index, minlength=2000))
    w = rng.integers(0, 9, 30000).astype(np.float32)
    assert np.array_equal(atomlab.bincount(index, w), np.bincount(index, w).astype(np.float32))
    assert atomlab.bincount(index, w).dtype == np.float32


def test_load_result_file():
    rows = atomlab.load(os.path.join(DATA, "compare-a.json"), frame=False)
    assert isinstance(rows, list) and rows and isinstance(rows[0], dict)
    assert any(k.startswith("time_ms.") for k in rows[0]) or "op" in rows[0]
    csv_rows = atomlab.load(os.path.join(DATA, "smem-table-synthetic.csv"), frame=False)
    assert csv_rows and isinstance(csv_rows[0], dict)


def test_version():
    assert atomlab.version().split(".")[0] == "1"


@pytest.mark.parametrize("n", [1, 15, 16, 4099, 100003])
def test_histogram_matches_bincount(n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 256, n).astype(np.uint8)
    a[: n // 3] = 0x3F  # a hot byte
    got = atomlab.histogram(a)
    assert got.dtype == np.int64 and got.shape == (256,)
    assert np.array_equal(got, np.bincount(a, minlength=256))


def test_histogram_of_an_image_and_of_nothing():
    rng = np.random.default_rng(21)
    img = rng.integers(0, 256, (37, 41, 4)).astype(np.uint8)
    assert np.array_equal(atomlab.histogram(img), np.bincount(img.ravel(), minlength=256))
    assert np.array_equal(atomlab.histogram(np.zeros(0, np.uint8)), np.zeros(256, np.int64))


@pytest.mark.parametrize("a", [np.zeros(10, np.int32), np.zeros((8, 8), np.uint8)[:, ::2]])
def test_histogram_bad_input_raises(a):
    with pytest.raises(ValueError, match="a:"):
        atomlab.histogram(a)

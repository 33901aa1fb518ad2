"""atomlab's PyTorch ops on a CUDA GPU (ctest gpu_python_torch: exit 77 without PyTorch or a GPU).

Equal to index_add_ within the summation bound; torch.compile(fullgraph=True) of a function calling the op;
autograd; the op on a non-default stream, returning before its kernels ran (no device synchronization) and
ordered after the stream's earlier work; device time within 10% of the CLI's `atomlab app scatter` at f32, D 64,
E 8M rows, V 1M targets, uniform i64 keys. ATL_PYTHON_REFERENCE_JSON=path writes that comparison's figures
with PyTorch's version, for the reference figures of the GPU."""
import json
import os
import subprocess
import sys
import tempfile



def _available():
    try:
        import torch as t
    except ImportError:
        return False
    return t.cuda.is_available()


if __name__ == "__main__" and not _available():
    print("skip: no PyTorch or no CUDA GPU")  # ctest's gpu_python_torch: skipped
    sys.exit(77)

import pytest  # noqa: E402

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU", allow_module_level=True)

import atomlab  # noqa: E402
import atomlab.torch as atl_torch  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEV = torch.device("cuda")


def _case(rows, targets, dim, seed=1):
    g = torch.Generator(device=DEV).manual_seed(seed)
    index = torch.randint(0, targets, (rows,), device=DEV, generator=g)
    src = torch.randn(rows, dim, device=DEV, generator=g)
    return index, src


def _bound(index, src, targets):
    mag = torch.zeros(targets, src.shape[1], dtype=torch.float64, device=DEV).index_add_(0, index, src.abs().double())
    depth = torch.bincount(index, minlength=targets).double().unsqueeze(1)
    return (depth - 1).clamp(min=0) * 2.0 ** -24 * mag


@pytest.mark.parametrize("deterministic", [False, True])
@pytest.mark.parametrize("index_dtype", [torch.int64, torch.int32])
def test_equals_index_add_within_bound(deterministic, index_dtype):
    index, src = _case(300000, 20000, 64)
    index = index.to(index_dtype)
    exact = torch.zeros(20000, 64, dtype=torch.float64, device=DEV).index_add_(0, index, src.double())
    out = torch.zeros(20000, 64, device=DEV)
    atl_torch.index_add_(out, 0, index, src, deterministic=deterministic)
    torch.cuda.synchronize()
    assert bool(((out.double() - exact).abs() <= _bound(index.long(), src, 20000) + 1e-30).all())


def test_deterministic_bit_identical():
    index, src = _case(500000, 5000, 32, seed=2)
    runs = [atl_torch.index_add_(torch.zeros(5000, 32, device=DEV), 0, index, src, deterministic=True)
            for _ in range(3)]
    assert all(torch.equal(r.view(torch.int32), runs[0].view(torch.int32)) for r in runs)


def test_compile_fullgraph():
    index, src = _case(100000, 3000, 16, seed=3)

    def f(base, index, src):
        return torch.ops.atomlab.scatter_add(base * 2, index, src.relu(), False, "auto") + 1

    base = torch.randn(3000, 16, device=DEV)
    compiled = torch.compile(f, fullgraph=True)
    got, want = compiled(base, index, src), f(base, index, src)
    torch.cuda.synchronize()
    assert torch.allclose(got, want, rtol=1e-5, atol=1e-4)


def test_autograd_src_is_gather():
    index, src = _case(50000, 1000, 8, seed=4)
    src.requires_grad_(True)
    base = torch.zeros(1000, 8, device=DEV, requires_grad=True)
    out = torch.ops.atomlab.scatter_add(base, index, src, False, "auto")
    weight = torch.randn_like(out)
    (out * weight).sum().backward()
    assert torch.equal(src.grad, weight.index_select(0, index))
    assert torch.equal(base.grad, weight)


def test_bincount_op():
    index, _ = _case(100000, 777, 1, seed=5)
    got = torch.ops.atomlab.bincount(index, None, 777, False)
    assert torch.equal(got, torch.bincount(index, minlength=777))


def test_non_default_stream_no_synchronization():
    index, src = _case(2000000, 100000, 64, seed=6)
    out = torch.zeros(100000, 64, device=DEV)
    stream = torch.cuda.Stream()
    done = torch.cuda.Event()
    torch.cuda.synchronize()
    with torch.cuda.stream(stream):
        atl_torch.index_add_(out, 0, index, src)  # kernels built, scratch sized, on this stream
        out.zero_()
    torch.cuda.synchronize()
    with torch.cuda.stream(stream):
        torch.cuda._sleep(200_000_000)  # the stream busy for a while (about 0.1 s)
        doubled = src * 2  # made on this stream, after the sleep: atomlab must wait for it on the stream
        atl_torch.index_add_(out, 0, index, doubled)
        done.record(stream)
    returned_early = not done.query()  # the call came back while its stream was still sleeping
    stream.synchronize()
    exact = torch.zeros(100000, 64, dtype=torch.float64, device=DEV).index_add_(0, index, 2 * src.double())
    assert returned_early, "the op waited for its stream (a host synchronization)"
    assert bool(((out.double() - exact).abs() <= 2 * _bound(index, src, 100000) + 1e-30).all())


def test_bad_key_on_the_stream_writes_nothing_and_synchronize_raises():
    index, src = _case(100000, 5000, 16, seed=7)
    index[4321] = 5000  # one past the rows of out
    out = torch.full((5000, 16), 2.5, device=DEV)
    atomlab.scatter_add(out, index, src, method="atomic")  # enqueued: the check's word is read by the kernels only
    with pytest.raises(ValueError, match="row 4321 holding key 5000"):
        atomlab.synchronize()
    assert bool((out == 2.5).all())
    atomlab.synchronize()  # reported once


def test_histogram_of_a_cuda_tensor():
    g = torch.Generator(device=DEV).manual_seed(8)
    a = torch.randint(0, 256, (1000003,), dtype=torch.uint8, device=DEV, generator=g)
    got = atomlab.histogram(a)
    assert got.device == a.device and got.dtype == torch.int64
    assert torch.equal(got, torch.bincount(a.long(), minlength=256))


def _cli_ms(atomlab_bin):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.json")
        subprocess.run([atomlab_bin, "app", "scatter", "--backend", "cuda", "--type", "f32", "--dim", "64", "--rows",
                        str(8 << 20), "--targets", str(1 << 20), "--dist", "uniform", "--index", "i64",
                        "--variants", "auto", "-o", path, "--quiet"], check=True, timeout=600)
        rows = atomlab.load(path, frame=False)
    # the auto row: the run's yardsticks (memcpy-ceiling, read-ceiling) come first and are not the operation
    ms = [float(r["time_ms.median"]) for r in rows
          if str(r.get("config.variant", "")).endswith("/auto") and "time_ms.median" in r]
    assert ms, "no auto row with a device time in the CLI's rows"
    return ms[0], rows


def test_device_time_within_10_percent_of_cli():
    atomlab_bin = os.environ.get("ATOMLAB_BIN", os.path.join(ROOT, "build", "atomlab"))
    if not os.path.exists(atomlab_bin):
        pytest.skip(f"no CLI at {atomlab_bin}")
    E, V, D = 8 << 20, 1 << 20, 64
    g = torch.Generator(device=DEV).manual_seed(7)
    index = torch.randint(0, V, (E,), device=DEV, generator=g)
    src = torch.rand(E, D, device=DEV, generator=g)
    out = torch.zeros(V, D, device=DEV)
    for _ in range(3):
        atl_torch.index_add_(out, 0, index, src)
    # The device's time per call: events around back-to-back calls, so the host's work for one call overlaps the
    # device's for the one before (as in a program's loop); one call between two events also counts the host's
    # launch work, with the device idle, and is kept beside it as single_call_ms.
    def per_call_ms(calls):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(calls):
            atl_torch.index_add_(out, 0, index, src)
        b.record()
        b.synchronize()
        return a.elapsed_time(b) / calls
    times = sorted(per_call_ms(10) for _ in range(7))
    single = sorted(per_call_ms(1) for _ in range(11))
    py_ms = times[len(times) // 2]
    cli_ms, rows = _cli_ms(atomlab_bin)
    figures = {"torch": torch.__version__, "atomlab": atomlab.version(), "gpu": torch.cuda.get_device_name(),
               "shape": {"type": "f32", "dim": D, "rows": E, "targets": V, "dist": "uniform", "index": "i64"},
               "python_device_ms_median": py_ms, "python_device_ms_min": times[0], "cli_device_ms": cli_ms,
               "single_call_ms_median": single[len(single) // 2],
               "timing": "events around 10 back-to-back calls, 7 times",
               "ratio": py_ms / cli_ms, "cli_variant": [r.get("config.variant") for r in rows]}
    path = os.environ.get("ATL_PYTHON_REFERENCE_JSON")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
    assert py_ms <= 1.10 * cli_ms, figures


if __name__ == "__main__":  # ctest's entry: pytest's status on this file (any but 0 fails, 5 too)
    sys.exit(pytest.main(["-v", "-p", "no:cacheprovider", __file__]))

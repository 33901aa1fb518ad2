"""CUDA-event timing of a PyTorch call, the one timer of scatter_shapes.py and torch_scatter.py."""
import statistics


def event_times(torch, fn, zero, reps, slow_ms=None):
    """fn timed by two CUDA events, reps times after a warm-up, each call from zero() (outside the timed region):
    (median ms, the reps' ms). Where slow_ms is given and the warm-up alone took more: (its ms, [])."""
    times = []
    for i in range(reps + 1):
        zero()
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        t = a.elapsed_time(b)
        if i == 0 and slow_ms is not None and t > slow_ms:
            return t, []
        if i:
            times.append(t)
    return statistics.median(times), times

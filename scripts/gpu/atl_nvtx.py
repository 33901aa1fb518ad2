"""Names the torch ops a program calls with NVTX ranges "op@file:line", so that `atomlab profile` (ncu --nvtx)
maps each kernel to the user's call site: `torch.bincount at train.py:42 -> atomlab atl_scatter_add bins`.

    import atl_nvtx
    atl_nvtx.wrap()                 # the op families atomlab advises on
    with atl_nvtx.op("my_step"):    # or a range of one's own, named by the caller's line

The file stands alone (no atomlab import) so that it can move into the Python package as atomlab.profile.
"""
import functools
import os
import sys

# (module path, attribute): what atomlab's advice covers (histogram, scatter and index reductions)
OPS = [("torch", "bincount"), ("torch", "histc"), ("torch.Tensor", "index_add_"), ("torch.Tensor", "scatter_add_"),
       ("torch.Tensor", "scatter_reduce_"), ("torch", "scatter_reduce"), ("torch.Tensor", "index_put_"),
       ("torch.nn.functional", "embedding"), ("torch", "index_add"), ("torch", "scatter_add")]


def _caller(depth):
    """The caller's frame that is not this file: 'file:line' with the file's base name."""
    f = sys._getframe(depth)
    while f is not None and f.f_code.co_filename == __file__:
        f = f.f_back
    return f"{os.path.basename(f.f_code.co_filename)}:{f.f_lineno}" if f else "?:0"


def _name(op, args, kwargs):
    """op plus the reduction where the op takes one (scatter_reduce's amax / amin are their own advice)."""
    reduce = kwargs.get("reduce")
    if reduce is None and "scatter_reduce" in op and len(args) >= 5:  # (self or input, dim, index, src, reduce)
        reduce = args[4]
    return f"{op}({reduce})" if isinstance(reduce, str) else op


class op:
    """A range "name@file:line" around a block (the line of the `with`). A push/pop range names only the kernels its
    own thread launches; @p across_threads adds a start/end range of the same name, which also names the kernels
    other threads launch meanwhile (autograd's backward runs on its own threads)."""

    def __init__(self, name, across_threads=False):
        self.name, self.across_threads, self.id = name, across_threads, None

    def __enter__(self):
        import torch
        label = f"{self.name}@{_caller(2)}"
        torch.cuda.nvtx.range_push(label)
        if self.across_threads:
            self.id = torch.cuda.nvtx.range_start(label)
        return self

    def __exit__(self, *exc):
        import torch
        if self.id is not None:
            torch.cuda.nvtx.range_end(self.id)
        torch.cuda.nvtx.range_pop()
        return False


def _wrapped(fn, label):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        import torch
        torch.cuda.nvtx.range_push(f"{_name(label, args, kwargs)}"
                                   f"@{_caller(2)}")
        try:
            return fn(*args, **kwargs)
        finally:
            torch.cuda.nvtx.range_pop()
    call._atl_nvtx = True
    return call


def wrap(ops=None):
    """Wraps each op of @p ops (default OPS) in a range named by its caller; returns the labels wrapped."""
    import importlib
    done = []
    for mod, attr in ops or OPS:
        if mod.endswith(".Tensor"):  # a method: the class of the module before it
            target = importlib.import_module(mod[: -len(".Tensor")]).Tensor
        else:
            target = importlib.import_module(mod)
        fn = getattr(target, attr, None)
        if fn is None or getattr(fn, "_atl_nvtx", False):
            continue
        label = f"{mod}.{attr}"
        setattr(target, attr, _wrapped(fn, label))
        done.append(label)
    return done

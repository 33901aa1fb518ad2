"""PyTorch ops over atomlab (imported only where PyTorch is: `import atomlab.torch`).

torch.ops.atomlab.scatter_add(base, index, src, deterministic, method) -> base with src's rows added at index
(a new tensor: functional, so torch.compile traces it, fullgraph), and torch.ops.atomlab.bincount(index,
weights, length); each with a fake (meta) implementation and, for scatter_add, autograd: the gradient of src is
the gather of the output's gradient (grad.index_select(0, index)), base's is the output's. index_add_(out, 0,
index, src) is the drop-in for Tensor.index_add_ along dimension 0, in place on the current stream.
"""
from typing import Optional

import torch

import atomlab as _atomlab

_LIB = "atomlab"


@torch.library.custom_op(f"{_LIB}::scatter_add", mutates_args=())
def scatter_add(base: torch.Tensor, index: torch.Tensor, src: torch.Tensor, deterministic: bool = False,
                method: str = "auto") -> torch.Tensor:
    out = base.clone()
    _atomlab.scatter_add(out, index, src, deterministic=deterministic, method=method, keys=_keys(method))
    return out


@scatter_add.register_fake
def _scatter_add_fake(base, index, src, deterministic=False, method="auto"):
    torch._check(index.dim() == 1, lambda: "index: one dimension")
    torch._check(src.shape[0] == index.shape[0], lambda: "index: one key a row of src")
    return torch.empty_like(base)


def _scatter_add_setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[1])


def _scatter_add_backward(ctx, grad):
    (index,) = ctx.saved_tensors
    return grad, None, grad.index_select(0, index), None, None


scatter_add.register_autograd(_scatter_add_backward, setup_context=_scatter_add_setup)


@torch.library.custom_op(f"{_LIB}::bincount", mutates_args=())
def bincount(index: torch.Tensor, weights: Optional[torch.Tensor], length: int, deterministic: bool = False
             ) -> torch.Tensor:
    return _atomlab.bincount(index, weights, length=length, deterministic=deterministic, keys="spread")


@bincount.register_fake
def _bincount_fake(index, weights, length, deterministic=False):
    dtype = torch.int64 if weights is None else weights.dtype
    return index.new_empty((length,), dtype=dtype)


def _keys(method):
    # a sample of the keys is read back (a wait on the stream) only where auto picks; the ops never wait
    return "spread" if method == "auto" else "sample"


def index_add_(out, dim, index, src, *, alpha=1, deterministic=False, method="auto"):
    """Tensor.index_add_(dim, index, src, alpha=alpha) through atomlab along dimension 0 (any other dim: PyTorch's
    own); in place, returns out. Under autograd (out or src requiring a gradient) through the op above."""
    if dim != 0:
        return out.index_add_(dim, index, src, alpha=alpha)
    if alpha != 1:
        src = src * alpha
    if torch.is_grad_enabled() and (out.requires_grad or src.requires_grad):
        return out.copy_(torch.ops.atomlab.scatter_add(out, index, src, deterministic, method))
    _atomlab.scatter_add(out, index, src, deterministic=deterministic, method=method, keys=_keys(method))
    return out

"""PyTorch behind Paddle's names and signatures, so the catalogue's functions run on it too:
the reference where Paddle gives a wrong number or none (special values, second order)."""
import numpy as np
import torch
import torch.nn.functional as _F


def _dims(x, axis):
    if axis is None:
        return tuple(range(x.ndim))
    return tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)


class _Functional:
    relu = staticmethod(_F.relu)
    sigmoid = staticmethod(torch.sigmoid)

    @staticmethod
    def softmax(x, axis=-1):
        return _F.softmax(x, dim=axis)

    @staticmethod
    def log_softmax(x, axis=-1):
        return _F.log_softmax(x, dim=axis)


class _NN:
    functional = _Functional


class Shim:
    """The torch module, with Paddle's signatures where they differ."""

    nn = _NN
    Tensor = torch.Tensor

    def __getattr__(self, name):
        return getattr(torch, name)

    @staticmethod
    def to_tensor(a, dtype=None):
        return torch.tensor(np.asarray(a))

    @staticmethod
    def sum(x, axis=None, keepdim=False):
        return torch.sum(x, dim=_dims(x, axis), keepdim=keepdim)

    @staticmethod
    def mean(x, axis=None, keepdim=False):
        return torch.mean(x, dim=_dims(x, axis), keepdim=keepdim)

    @staticmethod
    def max(x, axis=None, keepdim=False):
        return torch.amax(x, dim=_dims(x, axis), keepdim=keepdim)

    @staticmethod
    def min(x, axis=None, keepdim=False):
        return torch.amin(x, dim=_dims(x, axis), keepdim=keepdim)

    @staticmethod
    def logsumexp(x, axis=None, keepdim=False):
        return torch.logsumexp(x, dim=_dims(x, axis), keepdim=keepdim)

    @staticmethod
    def var(x, axis=None, unbiased=True, keepdim=False):
        return torch.var(x, dim=_dims(x, axis), correction=int(unbiased), keepdim=keepdim)

    @staticmethod
    def std(x, axis=None, unbiased=True, keepdim=False):
        return torch.std(x, dim=_dims(x, axis), correction=int(unbiased), keepdim=keepdim)

    @staticmethod
    def norm(x, p=2, axis=None, keepdim=False):
        return torch.linalg.vector_norm(x, ord=2 if p == "fro" else p, dim=_dims(x, axis),
                                        keepdim=keepdim)

    @staticmethod
    def matmul(x, y, transpose_x=False, transpose_y=False):
        if transpose_x and x.ndim >= 2:
            x = x.transpose(-1, -2)
        if transpose_y and y.ndim >= 2:
            y = y.transpose(-1, -2)
        return torch.matmul(x, y)

    @staticmethod
    def transpose(x, perm):
        return x.permute(*perm)

    @staticmethod
    def squeeze(x, axis=None):
        if axis is None:
            return torch.squeeze(x)
        return torch.squeeze(x, dim=axis)

    @staticmethod
    def flatten(x):
        return torch.flatten(x)

    @staticmethod
    def concat(xs, axis=0):
        return torch.cat(xs, dim=axis)

    @staticmethod
    def split(x, num, axis=0):
        n = x.shape[axis]
        return list(torch.split(x, n // num if num and n else max(n, 1), dim=axis)) \
            if n else [x.narrow(axis, 0, 0) for _ in range(num)]

    @staticmethod
    def unbind(x, axis=0):
        return list(torch.unbind(x, dim=axis))

    @staticmethod
    def flip(x, axis):
        return torch.flip(x, dims=list(axis) if isinstance(axis, (list, tuple)) else [axis])

    @staticmethod
    def expand(x, shape):
        return x.expand(*shape)

    @staticmethod
    def index_select(x, index, axis=0):
        return torch.index_select(x, axis, index)

    @staticmethod
    def gather(x, index, axis=0):
        return torch.index_select(x, axis, index)

    @staticmethod
    def take_along_axis(x, indices, axis):
        return torch.take_along_dim(x, indices, dim=axis)

    @staticmethod
    def cast(x, dtype):
        return x.to(getattr(torch, dtype))

    @staticmethod
    def clip(x, lo=None, hi=None):
        info = torch.finfo(x.dtype)
        return torch.clamp(x, info.min if lo is None else lo, info.max if hi is None else hi)


SHIM = Shim()

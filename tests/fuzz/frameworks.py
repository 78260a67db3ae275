"""The same computation in opsdk, PaddlePaddle and PyTorch: make tensors, differentiate (both
backward paths), read arrays back. Paddle and torch are imported only when asked for."""
from abc import ABC, abstractmethod

import numpy as np


class Framework(ABC):
    """One autograd framework behind a common interface (see OPSDK, paddle(), torch())."""

    name = "?"
    module = None  # what the ops in the catalogue are called on (m.exp(x), ...)

    @abstractmethod
    def tensor(self, array, needs_grad):
        """A tensor of the framework holding ``array``, recording gradients if ``needs_grad``."""

    @abstractmethod
    def array(self, t):
        """``t``'s values as a NumPy array."""

    @abstractmethod
    def needs_grad(self, t):
        """Whether ``t`` records gradients."""

    @abstractmethod
    def grad(self, outputs, inputs, grad_outputs, create_graph):
        """The gradients of ``outputs`` (weighted by ``grad_outputs``) with respect to ``inputs``."""

    @abstractmethod
    def backward(self, outputs, grad_outputs):
        """Accumulate the gradients of ``outputs`` into the leaves (the other backward path)."""

    @abstractmethod
    def leaf_grad(self, t):
        """The gradient ``backward`` left on the leaf ``t`` (None where none)."""

    @abstractmethod
    def is_tensor(self, v):
        """Whether ``v`` is a tensor of the framework."""

    def dtype(self, t):
        return str(self.array(t).dtype)


class _Opsdk(Framework):
    name = "opsdk"

    def __init__(self):
        import opsdk
        self.module = opsdk

    def tensor(self, array, needs_grad):
        return self.module.to_tensor(array, dtype=array.dtype, stop_gradient=not needs_grad)

    def array(self, t):
        return t.numpy()

    def needs_grad(self, t):
        return not t.stop_gradient  # as Paddle reports it (also for outputs with no path)

    def grad(self, outputs, inputs, grad_outputs, create_graph):
        return self.module.grad(outputs, inputs, grad_outputs=grad_outputs,
                                create_graph=create_graph, allow_unused=True)

    def backward(self, outputs, grad_outputs):
        live = [(o, g) for o, g in zip(outputs, grad_outputs) if o._req]
        if live:
            self.module.autograd.backward([o for o, _ in live], [g for _, g in live])

    def leaf_grad(self, t):
        return t.grad

    def is_tensor(self, v):
        return isinstance(v, self.module.Tensor)


class _Paddle(Framework):
    name = "paddle"

    def __init__(self):
        import paddle
        self.module = paddle

    def tensor(self, array, needs_grad):
        t = self.module.to_tensor(array, dtype=str(array.dtype))
        t.stop_gradient = not needs_grad
        return t

    def array(self, t):
        return np.asarray(t.numpy())

    def needs_grad(self, t):
        return not t.stop_gradient

    def grad(self, outputs, inputs, grad_outputs, create_graph):
        return self.module.grad(outputs, inputs, grad_outputs=grad_outputs,
                                create_graph=create_graph, allow_unused=True)

    def backward(self, outputs, grad_outputs):
        self.module.autograd.backward(outputs, grad_outputs)

    def leaf_grad(self, t):
        return t.grad

    def is_tensor(self, v):
        return isinstance(v, self.module.Tensor)


class _Torch(Framework):
    name = "torch"

    def __init__(self):
        import torch
        from .torch_shim import SHIM
        self.torch = torch
        self.module = SHIM

    def tensor(self, array, needs_grad):
        t = self.torch.tensor(array)
        return t.requires_grad_(needs_grad and array.dtype.kind == "f")

    def array(self, t):
        t = t.detach()
        try:
            return t.numpy()
        except RuntimeError:  # torch's ZeroTensor (a known-zero gradient) has no buffer
            return np.zeros(tuple(t.shape), dtype=str(t.dtype).replace("torch.", ""))

    def needs_grad(self, t):
        return t.requires_grad

    def grad(self, outputs, inputs, grad_outputs, create_graph):
        live = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
        if not live:
            return [None] * len(inputs)
        return list(self.torch.autograd.grad([o for o, _ in live], inputs,
                                              grad_outputs=[g for _, g in live],
                                              create_graph=create_graph, retain_graph=True,
                                              allow_unused=True))

    def backward(self, outputs, grad_outputs):
        live = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
        if live:
            self.torch.autograd.backward([o for o, _ in live], [g for _, g in live])

    def leaf_grad(self, t):
        return t.grad

    def is_tensor(self, v):
        return isinstance(v, self.torch.Tensor)


_CACHE = {}


def get(name):
    """The Framework called name ('opsdk', 'paddle', 'torch'), made once."""
    if name not in _CACHE:
        _CACHE[name] = {"opsdk": _Opsdk, "paddle": _Paddle, "torch": _Torch}[name]()
    return _CACHE[name]

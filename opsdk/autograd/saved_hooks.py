"""saved_tensors_hooks: pack each tensor an op keeps for backward when it is saved, unpack it
when backward reads it (Paddle's paddle.autograd.saved_tensors_hooks), e.g. to move saved
activations to the host or compress them. Per thread, nested (the innermost pair applies)."""
import threading


class _Stack(threading.local):
    def __init__(self):
        self.pairs = []


_stack = _Stack()


def active():
    """The innermost (pack_hook, unpack_hook), or None."""
    return _stack.pairs[-1] if _stack.pairs else None


class Packed:
    """A saved tensor as pack_hook returned it; ``unpacked()`` calls unpack_hook."""

    __slots__ = ("value", "unpack")

    def __init__(self, value, unpack):
        self.value, self.unpack = value, unpack

    def unpacked(self):
        from ..tensor import Tensor
        t = self.unpack(self.value)
        if not isinstance(t, Tensor):
            from ..errors import BackwardError
            raise BackwardError(f"saved_tensors_hooks: unpack_hook must return a Tensor; got: "
                                f"{type(t).__name__}")
        return t


def pack(t, pair):
    """t packed with pair's pack_hook."""
    return Packed(pair[0](t), pair[1])


class saved_tensors_hooks:
    """Context manager: inside it, every tensor an op (core op or PyLayer) saves for backward
    goes through ``pack_hook(tensor)`` at once, and what backward reads is
    ``unpack_hook(packed)``, a Tensor of the saved one's values.

    Example:
        >>> def pack(t):
        ...     return t.numpy()
        >>> def unpack(a):
        ...     return opsdk.to_tensor(a)
        >>> x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> with opsdk.autograd.saved_tensors_hooks(pack, unpack):
        ...     y = x * x
        >>> y.sum().backward()
        >>> x.grad.numpy().tolist()
        [2.0, 4.0]
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pair = (pack_hook, unpack_hook)

    def __enter__(self):
        _stack.pairs.append(self.pair)
        return self

    def __exit__(self, *exc):
        _stack.pairs.remove(self.pair)
        return False

"""Grad mode: whether ops record a graph. Per thread, like Paddle and PyTorch."""
import functools
import inspect
import threading


class _GradState(threading.local):
    enabled = True


_state = _GradState()


def is_grad_enabled():
    """Return True when ops in this thread record the graph for backward."""
    return _state.enabled


class _GradModeContext:
    """Base of the context managers below; also usable as a decorator."""

    _target = True

    def __enter__(self):
        self._prev = _state.enabled
        _state.enabled = self._target
        return self

    def __exit__(self, *exc):
        _state.enabled = self._prev
        return False

    def __call__(self, fn):
        target = self._target
        if inspect.isgeneratorfunction(fn):
            return _keep_signature(_generator_wrapper(fn, target), fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = _state.enabled
            _state.enabled = target
            try:
                return fn(*args, **kwargs)
            finally:
                _state.enabled = prev

        return _keep_signature(wrapper, fn)


def _keep_signature(wrapper, fn):
    """The decorated function shows fn's parameters also to ``inspect.getfullargspec`` (which
    does not follow ``__wrapped__``), as Paddle's decorators do."""
    try:
        wrapper.__signature__ = inspect.signature(fn)
    except (TypeError, ValueError):  # a callable without a signature (a builtin)
        pass
    return wrapper


def _generator_wrapper(fn, target):
    """A generator function decorated with a grad mode, as Paddle's decorator does it: the mode
    is set at the first ``next()`` and holds until the generator ends (between yields too, so
    the caller's loop body runs in it), then the mode before it is back."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        gen = fn(*args, **kwargs)  # runs nothing yet
        prev = _state.enabled
        _state.enabled = target
        try:
            return (yield from gen)
        finally:
            _state.enabled = prev

    return wrapper


class _Switch(_GradModeContext):
    """A grad-mode switch usable as ``with switch():``, ``@switch()`` and bare ``@switch``."""

    def __new__(cls, fn=None):
        self = super().__new__(cls)
        if callable(fn):
            return self(fn)
        return self

    def __init__(self, fn=None):
        pass


class no_grad(_Switch):
    """Context manager and decorator: ops inside record no graph.

    Example:
        >>> with opsdk.no_grad():
        ...     w -= 0.1 * w.grad
    """

    _target = False


class enable_grad(_Switch):
    """Context manager and decorator: ops inside record the graph again."""

    _target = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode; takes effect at once, and restores on exit when used with `with`."""

    def __init__(self, mode):
        self._target = bool(mode)
        self._prev = _state.enabled
        _state.enabled = self._target

    def __enter__(self):
        return self

    def __call__(self, fn):
        # as a decorator the mode belongs to the calls: set_grad_enabled(False) switched it
        # when built, so switch it back; each call then runs in the mode and restores the
        # caller's (Paddle's decorator only runs the first call in it, see docs/paddle.md)
        _state.enabled = self._prev
        return super().__call__(fn)

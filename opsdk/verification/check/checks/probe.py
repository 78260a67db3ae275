"""An instrumented copy of an op's Function that records what its backward returns."""
import functools


def recording(function):
    """``(Probe, calls)``: a subclass of ``function`` whose backward appends ``(grads, returned)``.

    The subclass keeps the Function's name, so errors and reports still name the op.
    """
    calls = []
    backward = function.backward

    # wraps keeps the markers decorators leave on backward (once_differentiable)
    @functools.wraps(backward)
    def recorded_backward(ctx, *grads):
        returned = backward(ctx, *grads)
        calls.append((grads, returned))
        return returned

    probe = type(function.__name__, (function,), {"backward": staticmethod(recorded_backward),
                                                  "__module__": function.__module__,
                                                  "__doc__": function.__doc__})
    return probe, calls

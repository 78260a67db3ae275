"""The calls an op makes to its CUDA kernels, recorded by running it on its own samples (forward,
backward, double backward, on the python backend), and the simulator cases they give: each call
pattern x dtype x layout x growing axis (see opsdk.kernels.cudasim.differential, which runs them).
"""
import numpy

from ...autograd import grad
from ...functional.creation import to_tensor
from ...kernels.cudasim.differential import DTYPES, LAYOUTS, Case, growing_axes, recording
from ...kernels.dispatch import use_backend
from ...tensor import Tensor
from .context import outputs_of
from .samples import from_sample


def record(op, seed=0):
    """The distinct calls of ``op``'s CUDA kernels in its forward, backward and double backward."""
    cuda = {id(k) for k in op.kernels if "cuda" in k.backends}
    found = {}
    rng = numpy.random.default_rng(seed)
    with use_backend("python"), recording() as calls:
        for i, sample in enumerate(op.samples("float64", rng=seed)):
            args, kwargs = from_sample(sample, f"sample {i}", seed).make(None)
            inputs = [a for a in args if isinstance(a, Tensor) and not a.stop_gradient]
            outputs = [o for o in outputs_of(op(*args, **kwargs)) if o.dtype.kind == "f" and not o.stop_gradient]
            if not inputs or not outputs:
                continue
            seeds = [to_tensor(rng.standard_normal(o.shape), dtype=o.dtype) for o in outputs]
            # first order (ops often use their fused backward kernels only here), then through
            # a recorded backward, differentiated again (double-backward kernels)
            grad(outputs, inputs, grad_outputs=seeds, retain_graph=True, allow_unused=True)
            if not op.double_backward:
                continue
            grads = grad(outputs, inputs, grad_outputs=seeds, create_graph=True, allow_unused=True)
            grads = [g for g in grads if g is not None and not g.stop_gradient]
            if grads:
                again = [to_tensor(rng.standard_normal(g.shape), dtype=g.dtype) for g in grads]
                grad(grads, inputs, grad_outputs=again, allow_unused=True)
    for call in calls:
        if id(call.kernel) in cuda:
            found.setdefault(call.signature, call)
    return list(found.values())


def cases(op, dtypes=DTYPES, layouts=LAYOUTS, seed=0):
    """Every Case of ``op``: recorded patterns x dtypes (its kernels take) x layouts x growing axes."""
    out = []
    for pattern in record(op, seed):
        axes = growing_axes(pattern)
        for dtype in dtypes:
            if dtype not in pattern.kernel.dtypes:
                continue
            for layout in layouts:
                for axis in axes:
                    out.append(Case(pattern.kernel, pattern, dtype, layout, axis))
    return out

"""One verified fact about one exported op, and the samples every framework check runs on."""
from typing import NamedTuple

import numpy as np

from ...autograd.grad_api import grad
from ...functional.creation import to_tensor


class Outcome(NamedTuple):
    """The result of one framework check on one sample of one op."""

    op: str
    framework: str
    check: str
    sample: object  # the sample's index, or "0 at beta=1.173" for the first at a moved attribute
    passed: bool
    detail: str = ""


class Recorder:
    """Collects Outcomes: ``record(check, sample, run)`` runs ``run`` and notes pass or fail."""

    def __init__(self, op, framework):
        self.op, self.framework, self.outcomes = op, framework, []

    def __call__(self, check, index, run):
        try:
            detail = run()
            self.outcomes.append(Outcome(self.op, self.framework, check, index, True,
                                         detail if isinstance(detail, str) else ""))
        except Exception as error:  # every failure is a row of the report, never a crash
            self.outcomes.append(Outcome(self.op, self.framework, check, index, False,
                                         failure_text(error)))


def float64_cases(exported):
    """[(index, arrays, attrs)]: the op's float64 samples as NumPy arrays (None where absent)."""
    sig = exported.signature
    cases = []
    for i, sample in enumerate(exported.info.samples("float64", rng=0)):
        tensors, attrs = sig.bind_sample(sample)
        arrays = [None if t is None else np.array(t.numpy(), copy=True) for t in tensors]
        cases.append((i, arrays, attrs))
    return cases


def attribute_cases(exported):
    """[(label, arrays, attrs)]: the op's first float64 sample at each value ``opsdk check`` moves
    a float attribute to (inside its range): a forward mode right only at the registered value
    of an attribute (a jvp reading a default instead of ``ctx``) is wrong there."""
    from types import SimpleNamespace

    from ..check.drawing import draw
    from ..check.samples import ATTRIBUTE

    cases = []
    for sample in draw(exported.info, "float64").samples:
        if sample.kind != ATTRIBUTE or sample.origin != 0:
            continue
        args, kwargs = sample.make(dtype="float64")
        tensors, attrs = exported.signature.bind_sample(SimpleNamespace(args=args, kwargs=kwargs))
        arrays = [None if t is None else np.array(t.numpy(), copy=True) for t in tensors]
        moved = ", ".join(f"{k}={v:.4g}" for k, v in attrs.items()
                          if isinstance(v, float))
        cases.append((f"0 at {moved}", arrays, attrs))
    return cases


def opsdk_reference(exported, arrays, attrs, weights=None, order=1):
    """opsdk's own outputs, and its gradients of sum(weights * output 0) w.r.t. the float
    inputs (then of the sum of their squares, for order 2)."""
    tensors = [None if a is None else to_tensor(a, stop_gradient=a.dtype.kind != "f")
               for a in arrays]
    args, kwargs = exported.signature.call(tensors, attrs)
    out = exported.info(*args, **kwargs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    values = [o.numpy() for o in outs]
    floats = [t for t in tensors if t is not None and t.dtype.kind == "f"]
    if weights is None or not floats:
        return values, []
    loss = (outs[0] * to_tensor(weights)).sum()
    grads = grad(loss, floats, create_graph=order > 1, allow_unused=True)
    if order > 1:
        total = sum((g * g).sum() for g in grads if g is not None)
        grads = grad(total, floats, allow_unused=True)
    return values, [None if g is None else g.numpy() for g in grads]


def failure_text(error):
    """A one-paragraph description of an exception, for a report row."""
    text = f"{type(error).__name__}: {error}".strip()
    return text if len(text) <= 600 else text[:597] + "..."

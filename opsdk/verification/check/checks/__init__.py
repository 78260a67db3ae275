"""The checks, one module each; ``CHECKS`` maps each name to its module, in the order they run.

A check module has ``NAME``, ``SUMMARY``, ``applies(op, backend)`` and ``run(ctx) -> Outcome``
(one sample; the runner aggregates over samples and turns exceptions into errors); optionally
``applies_dtype(op, backend, dtype)`` and ``KINDS``, the kinds of samples it runs on (default:
the op's own).
"""
from . import (accumulate, accumulation, backward_agreement, cuda_sizes, double_backward_error,
               forward, gradcheck, gradgradcheck, hooks, isolation, jvp, layout, materialize_grads,
               needs_input_grad, no_grad, protocol, reference, retain_graph, sizes, special_points,
               stop_gradient, ties)

_ORDER = (forward, gradcheck, gradgradcheck, jvp, double_backward_error, backward_agreement, reference,
          isolation, layout, sizes, accumulation, special_points, ties, protocol,
          needs_input_grad, materialize_grads, accumulate, stop_gradient, no_grad, retain_graph,
          hooks, cuda_sizes)

CHECKS = {module.NAME: module for module in _ORDER}

# what each check verifies, in words (the CLI's --help and docs/verifying.md use these)
SUMMARIES = {name: module.SUMMARY for name, module in CHECKS.items()}


def checks_for(op, backend, only=None, dtype=None):
    """Names of the checks that apply to ``op`` on ``backend`` (and ``dtype``, when given;
    limited to ``only`` when given)."""
    return [name for name, module in CHECKS.items()
            if module.applies(op, backend) and (not only or name in only)
            and (dtype is None or getattr(module, "applies_dtype", _any)(op, backend, dtype))]


def _any(op, backend, dtype):
    return True

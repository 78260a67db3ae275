"""gradcheck and gradgradcheck: the public entry points."""
import secrets
import warnings

import numpy as np

from ...errors import GradcheckError, OpsdkWarning
from .gradgrad import first_order_function
from .runner import check_gradients


def _verdict(report, raise_exception):
    if report.kinks_skipped:
        warnings.warn(f"gradcheck: {report.kinks_skipped} Jacobian element(s) sit on a "
                      "non-differentiable point and were not checked (seed "
                      f"{report.seed}); move the inputs away from kinks to check them",
                      OpsdkWarning, stacklevel=3)
    if report.ok:
        return True
    if raise_exception:
        raise GradcheckError(report)
    return False


def gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, fast_mode=False, check_undefined_grad=True,
              check_grad_dtypes=True, seed=None):
    """Check func's analytic gradients (its backward) against numeric central differences.

    The numeric side re-runs func on float64 copies of the inputs, so float32 and float16 ops
    are checked against accurate derivatives; tolerances grow with the inputs' machine epsilon
    (see docs/gradcheck.md). Inputs with stop_gradient=False are differentiated.

    Args:
        func: callable taking ``inputs`` and returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of arguments (Tensors and other values).
        eps: step of the central differences.
        atol, rtol: an element passes when |analytic - numeric| <= atol + rtol * |numeric|.
        raise_exception: raise GradcheckError on failure (else return False).
        nondet_tol: how far two backward runs with the same grad_outputs may differ.
        fast_mode: compare random projections vᵀJu instead of the whole Jacobian; on a
            failure the whole Jacobian is computed for the report.
        check_undefined_grad: zero grad_outputs must give zero gradients.
        check_grad_dtypes: gradients must have their input's dtype, shape and device.
        seed: seed of gradcheck's own random numbers (drawn when None; shown in the report).

    Returns:
        True when every check passes; False on failure with raise_exception=False.

    Example:
        >>> x = opsdk.randn([4, 3], dtype="float64")
        >>> x.stop_gradient = False
        >>> opsdk.autograd.gradcheck(lambda t: (opsdk.tanh(t) * t).sum(), (x,))
        True
    """
    report = check_gradients(func, inputs, eps, atol, rtol, nondet_tol, fast_mode,
                             check_undefined_grad, check_grad_dtypes, seed)
    return _verdict(report, raise_exception)


def gradgradcheck(func, inputs, grad_outputs=None, eps=1e-6, atol=1e-5, rtol=1e-3,
                  raise_exception=True, nondet_tol=0.0, fast_mode=False,
                  check_undefined_grad=True, check_grad_dtypes=True, seed=None,
                  input_names=None, output_names=None, derived=False):
    """Check second derivatives: gradcheck of the first-order gradients of func
    (``opsdk.grad(func(*inputs), inputs, grad_outputs, create_graph=True)``) as a function of
    the inputs and the grad_outputs.

    Args:
        grad_outputs: one Tensor per differentiable output of func; random (from the seed)
            when None. Those with stop_gradient=False are differentiated too.
        input_names, output_names: how the report names func's inputs and outputs (as
            check_gradients does); the grad_outputs are then ``grad of <output>`` and the
            first-order gradients ``grad_<input>``.
        derived: tolerances from error estimates (see check_gradients).
        others: as gradcheck.

    Returns:
        True when every check passes; False on failure with raise_exception=False. A backward
        that is first-order only fails with a report naming the op.

    Example:
        >>> opsdk.autograd.gradgradcheck(lambda t: (opsdk.tanh(t) * t).sum(), (x,))
        True
    """
    report = check_second_order(func, inputs, grad_outputs, eps, atol, rtol, nondet_tol,
                                fast_mode, check_undefined_grad, check_grad_dtypes, seed,
                                input_names, output_names, derived)
    return _verdict(report, raise_exception)


def check_second_order(func, inputs, grad_outputs=None, eps=1e-6, atol=1e-5, rtol=1e-3,
                       nondet_tol=0.0, fast_mode=False, check_undefined_grad=True,
                       check_grad_dtypes=True, seed=None, input_names=None, output_names=None,
                       derived=False, max_jacobian=None, max_calls=None):
    """gradgradcheck's GradcheckReport itself (never raises on a wrong second derivative)."""
    seed = secrets.randbits(32) if seed is None else int(seed)
    rng = np.random.default_rng([seed, 2])
    fn, args, names, out_names = first_order_function(func, inputs, grad_outputs, rng,
                                                      input_names, output_names)
    return check_gradients(fn, args, eps, atol, rtol, nondet_tol, fast_mode,
                           check_undefined_grad, check_grad_dtypes, seed, order=2,
                           input_names=names, output_names=out_names, derived=derived,
                           max_jacobian=max_jacobian, max_calls=max_calls)

"""Central differences in float64 on plain NumPy functions: the tests' gradient oracle.

Deliberately independent of opsdk (no Tensor, no engine, no opsdk.autograd.gradcheck), so a bug
shared by the product's gradients and its own gradcheck cannot hide here.
"""
import numpy as np


def _flat_output(f, arrays):
    out = f(*arrays)
    if isinstance(out, (list, tuple)):
        return np.concatenate([np.asarray(o, dtype=np.float64).ravel() for o in out])
    return np.asarray(out, dtype=np.float64).ravel()


def numeric_jacobian(f, arrays, eps=1e-6):
    """One Jacobian per input array, each of shape (output size, input size).

    ``f(*arrays)`` returns an array (or a list of arrays, concatenated flat); it must not keep
    or modify its arguments. Central differences: error O(eps**2) plus rounding O(1e-16 / eps).

    Example:
        >>> (j,) = numeric_jacobian(lambda x: x ** 2, [np.array([3.0])])   # [[6.0]]
    """
    arrays = [np.array(a, dtype=np.float64) for a in arrays]
    jacobians = []
    for k, a in enumerate(arrays):
        flat = a.reshape(-1)
        columns = []
        for i in range(flat.size):
            orig = flat[i]
            flat[i] = orig + eps
            plus = _flat_output(f, arrays)
            flat[i] = orig - eps
            minus = _flat_output(f, arrays)
            flat[i] = orig
            columns.append((plus - minus) / (2 * eps))
        if columns:
            jacobians.append(np.stack(columns, axis=1))
        else:
            size = _flat_output(f, arrays).size
            jacobians.append(np.zeros((size, 0)))
    return jacobians


def numeric_vjp(f, arrays, cotangent, eps=1e-6):
    """cotangent^T J for each input, shaped like that input (the first-order reference)."""
    v = np.asarray(cotangent, dtype=np.float64).ravel()
    return [(v @ j).reshape(np.shape(a))
            for j, a in zip(numeric_jacobian(f, arrays, eps), arrays)]


def numeric_vjp_vjp(f, arrays, cotangent, tangents, eps=1e-4):
    """The second-order reference: d/dx_k of sum_i <tangents[i], (cotangent^T J)_i>.

    Nested central differences of f itself, so no first-order gradient of the product is
    trusted. eps=1e-4 balances truncation and rounding (both about 1e-8 in float64).
    """
    def first_order(*xs):
        return numeric_vjp(f, xs, cotangent, eps)
    u = np.concatenate([np.asarray(t, dtype=np.float64).ravel() for t in tangents])
    return [(u @ j).reshape(np.shape(a))
            for j, a in zip(numeric_jacobian(first_order, arrays, eps), arrays)]

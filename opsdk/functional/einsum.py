"""einsum: Einstein summation with '...' broadcasting, gradients of every order.

The gradient of operand k is itself an einsum (of the output gradient and the other operands)
into operand k's labels. Those labels may repeat ('ii') or appear in no other operand; a core
that allows both in its output (diagonal embedding, broadcasting) serves forward and backward.
"""
import functools
import string

import numpy as np

from ..autograd.record import record
from ..errors import AssertedArgumentError, AssertedShapeError, OpArgumentError, ShapeError
from ..tensor import Tensor
from . import maths
from .flat_index import put, scatter_add_array
from .op_args import tensor_list_arg
from .shape import as_shape, broadcast_to
from .views import mark_view


def _split_term(term, ndim, k, equation):
    """A term's named labels before and after '...', checked against the operand's ndim."""
    if term.count("...") > 1 or term.replace("...", "").count(".") > 0:
        raise OpArgumentError(f"einsum: term {k} ({term!r}) of {equation!r} has a stray '.'; "
                              f"expected: at most one '...'")
    head, _, tail = term.partition("...")
    for c in head + tail:
        if c not in string.ascii_letters:
            raise OpArgumentError(f"einsum: label {c!r} in {equation!r} is not a letter; "
                                  f"expected: labels a-z, A-Z and '...'")
    named = len(head) + len(tail)
    if "..." not in term and named != ndim:
        # Paddle asserts the label count (an AssertionError)
        raise AssertedShapeError(f"einsum: term {k} ({term!r}) has {named} labels for operand "
                                 f"{k} of {ndim} dims; expected: one label per dim (or '...')")
    if named > ndim:
        raise AssertedShapeError(f"einsum: term {k} ({term!r}) has {named} labels for operand "
                                 f"{k} of {ndim} dims")
    return head, tail, ndim - named if "..." in term else 0


def parse(equation, shapes):
    """(labels per operand, output labels, size per label), all as single letters.

    '...' dims get letters of their own, right-aligned across operands as in broadcasting.
    """
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    if "->" in rhs:
        raise OpArgumentError(f"einsum: {equation!r} has more than one '->'")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        # Paddle asserts "Invalid equation: the number of operands is ..."
        raise AssertedArgumentError(f"einsum: {equation!r} has {len(terms)} operand terms; expected: "
                              f"one per operand; got: {len(shapes)} operands")
    parts = [_split_term(t, len(s), k, equation) for k, (t, s) in enumerate(zip(terms, shapes))]
    used = set(lhs) | set(rhs)
    n_ell = max((p[2] for p in parts), default=0)
    spare = [c for c in string.ascii_letters if c not in used]
    if n_ell > len(spare):
        raise OpArgumentError(f"einsum: {equation!r} needs more than 52 labels")
    ell = "".join(spare[:n_ell])
    labels = [head + ell[n_ell - d:] + tail for head, tail, d in parts]
    sizes = {}
    for k, (lab, shape) in enumerate(zip(labels, shapes)):
        mine = {}
        for c, s in zip(lab, shape):
            if mine.setdefault(c, s) != s:
                raise ShapeError(f"einsum: label {c!r} repeats in term {k} with sizes "
                                 f"{mine[c]} and {s}; expected: equal sizes (a diagonal)")
            old = sizes.get(c, 1)
            if s != old and 1 not in (s, old):
                raise ShapeError(f"einsum: label {c!r} has sizes {old} and {s} in {equation!r}; "
                                 f"expected: equal sizes (or 1, which broadcasts)")
            sizes[c] = s if old == 1 else old
    if arrow:
        if rhs.count("...") > 1 or rhs.replace("...", "").count("."):
            raise OpArgumentError(f"einsum: the output of {equation!r} has a stray '.'")
        out = rhs.replace("...", ell)
        for c in out:
            if c not in sizes:
                raise OpArgumentError(f"einsum: output label {c!r} of {equation!r} appears in "
                                      f"no operand")
    else:
        counts = {}
        for lab in labels:
            for c in lab:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    return labels, out, sizes


def _embed_positions(out, uniq, sizes):
    """Flat positions in the out-labelled array of each element of the uniq-labelled one."""
    coords = np.indices([sizes[c] for c in uniq], dtype=np.int64)
    shape = [sizes[c] for c in out]
    strides = np.cumprod([1] + shape[::-1][:-1])[::-1]
    flat = np.zeros(coords.shape[1:], dtype=np.int64)
    for c, st in zip(out, strides):
        flat += coords[uniq.index(c)] * st
    return flat


def _unique(out):
    return "".join(dict.fromkeys(out))


def _finish_array(r, computed, out, sizes):
    """r (labels ``computed``) brought to ``out``: missing labels broadcast, repeats embedded."""
    uniq = _unique(out)
    if computed != uniq:
        r = np.ascontiguousarray(np.broadcast_to(
            r.reshape([sizes[c] if c in computed else 1 for c in uniq]), [sizes[c] for c in uniq]))
    if uniq != out:
        r = scatter_add_array(r, _embed_positions(out, uniq, sizes),
                              [sizes[c] for c in out], True)
    return r


def _finish(r, computed, out, sizes):
    """_finish_array with Tensor ops."""
    uniq = _unique(out)
    if computed != uniq:
        r = broadcast_to(as_shape(r, [sizes[c] if c in computed else 1 for c in uniq]),
                         [sizes[c] for c in uniq])
    if uniq != out:
        r = put("einsum", r, _embed_positions(out, uniq, sizes), [sizes[c] for c in out])
    return r


def _present(out, labels):
    have = set("".join(labels))
    return "".join(c for c in _unique(out) if c in have)


def _einsum_arrays(datas, labels, out, sizes):
    computed = _present(out, labels)
    r = np.einsum(",".join(labels) + "->" + computed, *datas, optimize=len(datas) > 2)
    return _finish_array(np.asarray(r), computed, out, sizes)


def contract(ops, labels, out, sizes, keep=()):
    """einsum of Tensors ``ops`` (labels already broadcast-consistent) into ``out``.

    ``keep`` are the tensors to version-check (the caller's originals, of which ops may be
    broadcast views).
    """
    computed = _present(out, labels)
    datas = [t._data for t in ops]
    r = np.einsum(",".join(labels) + "->" + computed, *datas, optimize=len(ops) > 2)
    r = np.array(r)  # einsum can return a view of its operand; the result owns its memory
    # operand k's gradient: the einsum of g and the other operands into k's labels
    rule = tuple(functools.partial(_einsum_grad, k, labels, computed, sizes)
                 for k in range(len(ops)))
    several = len(ops) > 1
    r = record("einsum", r, tuple(ops), rule, tuple(ops) if several else (),
               saved=tuple(t for t in keep if isinstance(t, Tensor)) if several else ())
    return _finish(r, computed, out, sizes)


def _einsum_grad(k, labels, out, sizes, g, *operands):
    others = [i for i in range(len(labels)) if i != k]
    return _contracted([g] + [operands[i] for i in others],
                       [out] + [labels[i] for i in others], labels[k], sizes)


def _contracted(values, labels, out, sizes):
    """The einsum of arrays (NumPy's) or of Tensors (contract: a graph op)."""
    if any(maths.is_tensor(v) for v in values):
        return contract(values, labels, out, sizes)
    return _einsum_arrays(values, labels, out, sizes)


def einsum(equation, *operands):
    """Einstein summation over the operands' labelled axes.

    Labels are letters; '...' stands for broadcast dims; without '->' the output holds the
    '...' dims and then the labels used once, sorted. A label repeated in one term takes a
    diagonal, one repeated in the output puts values on a diagonal (as in Paddle). Size-1
    axes broadcast against a label's other sizes.

    Args:
        equation: e.g. 'ij,jk->ik', '...ij,...jk', 'ii->i'.
        operands: tensors of one dtype (or one list of them).

    Returns:
        The result tensor.

    Example:
        >>> a = opsdk.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> opsdk.einsum("ij,jk->ik", a, a).numpy()
        array([[ 7., 10.],
               [15., 22.]], dtype=float32)
    """
    if not isinstance(equation, str):
        raise OpArgumentError(f"einsum: argument 'equation' must be a str; got: "
                              f"{type(equation).__name__}")
    ts = tensor_list_arg(operands, "einsum", "operands")
    labels, out, sizes = parse(equation, [t._data.shape for t in ts])
    if len(ts) == 1 and out == labels[0] and len(set(out)) == len(out):
        return _identity(ts[0])
    ops = [t if list(t._data.shape) == [sizes[c] for c in lab] else
           broadcast_to(t, [sizes[c] for c in lab]) for t, lab in zip(ts, labels)]
    return contract(ops, labels, out, sizes, keep=ts)


def _identity(x):
    """'ij->ij' returns a view of its operand, as in Paddle."""
    out = x._data.view()
    return mark_view(record("einsum", out, (x,), _SAME), x, out, _identity)


_SAME = (lambda g: g,)

"""Asking for gradients: Tensor.backward, Tensor.retain_grads and opsdk.grad (returned, not
accumulated)."""
import warnings
import weakref


from ..device import array_module
from ..errors import BackwardError, GradArgumentError, OpsdkWarning, UnreachableInputError
from ..tensor import Tensor, _wrap
from .engine import new_grad, run_backward
from .record import edge_to


def backward(self, grad_tensor=None, retain_graph=False):
    """Accumulate d(self)/d(leaf) into ``.grad`` of every leaf with stop_gradient=False.

    A non-scalar tensor is seeded with ones, as in Paddle. The graph is freed afterwards
    unless ``retain_graph=True``.
    """
    if grad_tensor is not None:
        check_grad_tensors([grad_tensor], 1, "backward", "grad_tensor")
        if tuple(grad_tensor.shape) != tuple(self.shape):
            # Paddle's Tensor.backward asserts the exact shape first (a [1] gradient for a 0-d
            # loss too); paddle.grad and autograd.backward read a size-1-dims one (seed_array)
            raise GradArgumentError(f"backward: grad_tensor must have the shape of the tensor; "
                                    f"expected: {list(self.shape)}; got: "
                                    f"{list(grad_tensor.shape)}")
    if not self._req:
        warnings.warn("backward() on a tensor with stop_gradient=True does nothing: no input "
                      "of it needs a gradient (set stop_gradient=False on the inputs)",
                      OpsdkWarning, stacklevel=2)
        return
    if grad_tensor is None:
        g = array_module(self._data).ones_like(self._data)
    else:
        g = grad_tensor._data
        if g.dtype != self._data.dtype:
            g = g.astype(self._data.dtype)
    run_backward([self], [g], retain_graph, False)


def seed_array(t, g, what, of):
    """The array of gradient g given for tensor t: g's, or g's values in t's shape where the
    two shapes differ only by dims of size 1 (a [1] gradient for a 0-d loss: Paddle's kernels
    read it as the tensor's); any other shape is refused (Paddle runs on and returns gradients
    of a wrong shape)."""
    a = g._data
    if tuple(a.shape) == tuple(t._data.shape):
        return a
    if a.size == t._data.size and [n for n in a.shape if n != 1] == \
            [n for n in t._data.shape if n != 1]:
        return a.reshape(t._data.shape)
    raise BackwardError(f"{what} must have the shape of {of} (or differ only by dims of "
                        f"size 1); expected: {list(t.shape)}; got: {list(g.shape)}")


def check_grad_tensors(gs, n, op, what):
    """Paddle's rules for the gradients handed to backward / grad: one per tensor, each a
    Tensor or None (a NumPy array is refused, as Paddle refuses it)."""
    if len(gs) != n:
        raise GradArgumentError(f"{op}: expected: one entry of '{what}' per tensor ({n}); "
                                f"got: {len(gs)}")
    for i, g in enumerate(gs):
        if g is not None and not isinstance(g, Tensor):
            raise GradArgumentError(f"{op}: '{what}' entries must be Tensors or None; got: "
                                    f"{type(g).__name__} at {i} (wrap it with opsdk.to_tensor)")


def retain_grads(self):
    """Keep the gradient of this non-leaf tensor in ``.grad`` after backward."""
    if self._node is None or getattr(self, "_retaining", False):
        return
    self._retaining = True
    # a weak reference: the hook lives on this tensor's node, a strong one would be a cycle
    ref = weakref.ref(self)

    def keep(g):
        t = ref()
        if t is not None:
            # a leaf tensor reporting stop_gradient=False, as a leaf's .grad (Paddle). Each
            # backward replaces it (the hook runs once per backward, with the summed
            # gradient): Paddle keeps the last backward's, it does not accumulate
            t.grad = new_grad(g._data)
    self.register_hook(keep)


def _as_list(v, what):
    """v as a list of Tensors; anything else is refused by an assertion, as Paddle does."""
    if isinstance(v, Tensor):
        return [v]
    constants = what == "no_grad_vars"  # may be a set, may be empty (Paddle)
    if isinstance(v, (list, tuple)) or (constants and isinstance(v, set)):
        if not v and not constants:
            raise GradArgumentError(f"opsdk.grad: '{what}' cannot be empty")
        for i, t in enumerate(v):
            if not isinstance(t, Tensor):
                raise GradArgumentError(f"opsdk.grad: {what}[{i}] must be a Tensor; "
                                        f"got: {type(t).__name__}")
        return list(v)
    raise GradArgumentError(f"opsdk.grad: '{what}' must be a Tensor or a list of Tensors; "
                            f"got: {type(v).__name__}")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None):
    """Return d(outputs)/d(inputs) as a list of Tensors, without touching ``.grad``.

    As in Paddle, the graph is kept whatever ``retain_graph`` says: a later opsdk.grad or
    backward() through it works (it is freed with the last reference to the outputs).

    Args:
        outputs: a Tensor or list of Tensors to differentiate.
        inputs: a Tensor or list of Tensors to differentiate with respect to.
        grad_outputs: weights for each output (ones when None).
        retain_graph: accepted for Paddle compatibility; the graph is always kept.
        create_graph: record the backward itself, so the result can be differentiated again.
        allow_unused: return None for inputs the outputs do not depend on, or that have
            stop_gradient=True (else an error).
        no_grad_vars: Tensors treated as constants: no gradient flows through them.

    Example:
        >>> x = opsdk.to_tensor([2.0], stop_gradient=False)
        >>> (dx,) = opsdk.grad(x ** 3, x, create_graph=True)   # 3x^2 = 12
        >>> (d2x,) = opsdk.grad(dx, x)                          # 6x = 12
    """
    if not only_inputs:
        raise GradArgumentError("opsdk.grad: only_inputs=False is not supported (nor by Paddle): "
                                "the gradients of the inputs are all it returns")
    # the arguments first, then the graph, as Paddle checks them
    outs = _as_list(outputs, "outputs")
    ins = _as_list(inputs, "inputs")
    if grad_outputs is None:
        gos = [None] * len(outs)
    else:
        gos = list(grad_outputs) if isinstance(grad_outputs, (list, tuple)) else [grad_outputs]
        check_grad_tensors(gos, len(outs), "opsdk.grad", "grad_outputs")
    blocked = _blocked_edges(no_grad_vars)
    for what, ts in (("inputs", ins), ("outputs", outs)):
        if len({id(t) for t in ts}) != len(ts):
            raise BackwardError(f"opsdk.grad: '{what}' holds one tensor twice; expected: each "
                                f"tensor once, as Paddle requires")
    if not allow_unused:
        for i, t in enumerate(ins):
            if not t._req:
                raise UnreachableInputError(
                    f"opsdk.grad: inputs[{i}] has stop_gradient=True, so it has no gradient; "
                    "set stop_gradient=False on it before the forward, or pass "
                    "allow_unused=True to get None for it")
    if not any(t._req for t in outs):
        if allow_unused:
            return [None] * len(ins)
        raise UnreachableInputError(f"opsdk.grad: outputs[0]{' (and every other)' if len(outs) > 1 else ''} "
                                    "has stop_gradient=True: it does not depend on any tensor "
                                    "that needs a gradient")
    seeds = []
    kept = []
    for i, (t, g) in enumerate(zip(outs, gos)):
        if not t._req:
            continue
        kept.append(t)
        if g is None:
            arr = array_module(t._data).ones_like(t._data)
            seeds.append(_wrap(arr) if create_graph else arr)
            continue
        arr = seed_array(t, g, f"opsdk.grad: grad_outputs[{i}]", f"outputs[{i}]")
        if not create_graph:
            g = arr
        elif arr is not g._data:
            g = g.reshape(list(arr.shape))  # a graph op: the seed keeps its own gradient
        seeds.append(g)
    res = run_backward(kept, seeds, True, create_graph, inputs=ins, allow_unused=allow_unused,
                       blocked=blocked)
    if create_graph:
        # Paddle: every create_graph gradient reports stop_gradient=False, also a constant
        # one: a new tensor (the caller's stay untouched), a leaf where the input is an output
        # itself (d x/d x), else an op's result (d 3x/d x)
        own = {id(t) for t in outs}
        res = [r if r is None or r._req else _constant_grad(r, id(t) in own)
               for r, t in zip(res, ins)]
    return res


def _constant_grad(r, seed):
    t = new_grad(r._data)
    t._op_result = not seed
    return t


def _blocked_edges(no_grad_vars):
    """The graph edges into the tensors of no_grad_vars (gradients stop there)."""
    if no_grad_vars is None:
        return None
    vs = _as_list(no_grad_vars, "no_grad_vars")
    blocked = {edge_to(t) for t in vs} - {None}
    return blocked or None

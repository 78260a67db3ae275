"""paddle.nn.utils.weight_norm / remove_weight_norm: a layer's weight reparameterised as
w = g * v / ||v|| (Salimans & Kingma, 2016), the norm over every axis but ``dim``. The layer's
parameter ``weight`` becomes ``weight_g`` (the norms) and ``weight_v`` (the direction), and a
forward pre-hook recomputes ``layer.weight`` (a non-persistable buffer, as a Tensor set on a
Paddle layer becomes) from them before each call."""
from ...autograd import no_grad
from ...errors import AssertedArgumentError, OpArgumentError
from .reparam_checks import check_reparameterisable


def _norm_except(p, dim):
    """sqrt(sum of squares + 1e-12) over every axis but dim (dim=-1: over all: a 0-d tensor)."""
    from ...functional.elementwise import sqrt, square
    from ...functional.reduction import sum as total
    from ...functional.shape import reshape, transpose

    if dim == -1:
        return sqrt(total(square(p)) + 1e-12)
    if dim != 0:
        perm = list(range(len(p.shape)))
        perm[0], perm[dim] = dim, 0
        p = transpose(p, perm)
    return sqrt(total(square(reshape(p, (p.shape[0], -1))), axis=1) + 1e-12)


def _normalized(v, dim):
    """v scaled to unit norm over every axis but dim (its slices along dim, one by one)."""
    from ...functional.elementwise import sqrt, square
    from ...functional.reduction import sum as total
    from ...functional.shape import reshape, transpose
    from ..functional.norm import normalize

    if dim == -1:
        return v / (sqrt(total(square(v))) + 1e-12)
    perm = list(range(len(v.shape)))
    perm[0], perm[dim] = dim, 0
    moved = transpose(v, perm) if dim else v
    unit = reshape(normalize(reshape(moved, (moved.shape[0], -1)), axis=1), moved.shape)
    return transpose(unit, perm) if dim else unit


class WeightNorm:
    """The forward pre-hook: sets ``layer.<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, layer):
        from ...functional.shape import reshape

        g = getattr(layer, self.name + "_g")
        v = getattr(layer, self.name + "_v")
        if self.dim != -1:
            g = reshape(g, [g.shape[0] if k == self.dim else 1 for k in range(len(v.shape))])
        return _normalized(v, self.dim) * g

    @staticmethod
    def apply(layer, name, dim):
        check_reparameterisable(layer, name, WeightNorm, "weight_norm")
        dim = -1 if dim is None else dim
        rank = len(layer._parameters[name].shape)
        if not -rank <= dim < rank:
            raise AssertedArgumentError(f"weight_norm: dim: expected: in [-{rank}, {rank}); "
                                        f"got: {dim}")
        if dim != -1:
            dim = (dim + rank) % rank
        hook = WeightNorm(name, dim)
        w = getattr(layer, name)
        del layer._parameters[name]
        with no_grad():
            g_value = _norm_except(w, dim)
        v = layer.create_parameter(w.shape, dtype=w.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(g_value.shape, dtype=g_value.dtype)
        layer.add_parameter(name + "_g", g)
        with no_grad():
            v.set_value(w.numpy())
            g.set_value(g_value.numpy())
        # a Tensor set on a Paddle layer becomes a non-persistable buffer
        layer.register_buffer(name, hook.compute_weight(layer), persistable=False)
        layer.register_forward_pre_hook(hook)
        return hook

    def remove(self, layer):
        w_value = self.compute_weight(layer)
        delattr(layer, self.name)
        del layer._parameters[self.name + "_g"]
        del layer._parameters[self.name + "_v"]
        w = layer.create_parameter(w_value.shape, dtype=w_value.dtype)
        layer.add_parameter(self.name, w)
        with no_grad():
            w.set_value(w_value.numpy())

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer))


def weight_norm(layer, name="weight", dim=0):
    """Reparameterise ``layer.<name>`` as g * v / ||v||, the norm over every axis but dim
    (None: over all, g a 0-d tensor); returns the layer."""
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer, name="weight"):
    """Undo weight_norm: ``<name>`` becomes one parameter again, holding g * v / ||v||."""
    for key, hook in layer._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[key]
            return layer
    raise OpArgumentError(f"remove_weight_norm: expected: a weight_norm of {name!r} on "
                          f"{type(layer).__name__}; got: none")

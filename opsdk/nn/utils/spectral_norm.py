"""paddle.nn.utils.spectral_norm: a layer's weight divided by its largest singular value
(Miyato et al., 2018), estimated by power iteration. The parameter ``weight`` is kept as
``weight_orig``; buffers ``weight_u`` and ``weight_v`` hold the singular-vector estimates, which
each forward in training mode refines (n_power_iterations steps) before it sets
``layer.weight`` = weight_orig / (u . W v), W the weight as a matrix with ``dim`` first."""
from ...autograd import no_grad
from ...errors import OpArgumentError
from .reparam_checks import check_reparameterisable


class SpectralNorm:
    """The forward pre-hook: sets ``layer.<name>`` from ``<name>_orig``, ``_u`` and ``_v``."""

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise OpArgumentError(f"spectral_norm: n_power_iterations: expected: a positive "
                                  f"int; got: {n_power_iterations}")
        self.name, self.dim = name, dim
        self.n_power_iterations, self.eps = n_power_iterations, eps

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.transpose(
                [self.dim] + [d for d in range(len(weight.shape)) if d != self.dim])
        return weight.reshape([weight.shape[0], -1])

    def compute_weight(self, layer, do_power_iteration):
        from ...functional.linalg import dot, matmul, mv
        from ..functional.norm import normalize

        weight = getattr(layer, self.name + "_orig")
        u = getattr(layer, self.name + "_u")
        v = getattr(layer, self.name + "_v")
        mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.set_value(normalize(matmul(mat, u, transpose_x=True), axis=0,
                                          epsilon=self.eps).numpy())
                    u.set_value(normalize(matmul(mat, v), axis=0, epsilon=self.eps).numpy())
                u, v = u.clone(), v.clone()
        return weight / dot(u, mv(mat, v))

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer, layer.training))

    @staticmethod
    def apply(layer, name, n_power_iterations, dim, eps):
        from ...functional.creation import normal
        from ..functional.norm import normalize

        check_reparameterisable(layer, name, SpectralNorm, "spectral_norm")
        hook = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = layer._parameters[name]
        with no_grad():
            h, w = hook.reshape_weight_to_matrix(weight).shape
            u = normalize(normal(0.0, 1.0, shape=[h]).astype(weight.dtype), axis=0,
                          epsilon=eps)
            v = normalize(normal(0.0, 1.0, shape=[w]).astype(weight.dtype), axis=0,
                          epsilon=eps)
        del layer._parameters[name]
        layer.add_parameter(name + "_orig", weight)
        # a Tensor set on a Paddle layer becomes a non-persistable buffer
        layer.register_buffer(name, weight * 1.0, persistable=False)
        layer.register_buffer(name + "_u", u)
        layer.register_buffer(name + "_v", v)
        layer.register_forward_pre_hook(hook)
        return hook


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide ``layer.<name>`` by its spectral norm before every forward; dim (the axis of the
    output features) defaults to 1 for Linear and the transposed convolutions, else 0.
    Returns the layer."""
    from ..conv import _ConvTransposeNd
    from ..linear import Linear

    if dim is None:
        dim = 1 if isinstance(layer, (Linear, _ConvTransposeNd)) else 0
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer

"""AdamW: Adam with decoupled weight decay (Loshchilov & Hutter, 2019), in Paddle's form."""
from ..errors import OpArgumentError
from .adam import Adam


class AdamW(Adam):
    """Adam plus decoupled weight decay: param *= 1 - lr * coeff, then the Adam update.

    The decay uses the (ratio-scaled) learning rate without bias correction, as Paddle's
    kernel; it is not added to the gradient, so grad_clip and moments never see it.
    With a row-sparse gradient and lazy_mode=True only the present rows decay.

    Args:
        learning_rate: float or LRScheduler (0.001).
        beta1, beta2, epsilon: as Adam (0.9, 0.999, 1e-8).
        weight_decay: the decay coefficient (0.01).
        lr_ratio: callable(param) -> multiplier of the learning rate for that parameter.
        apply_decay_param_fun: callable(param name) -> bool; False skips the decay.
        grad_clip, lazy_mode, amsgrad: as Adam.

    Example:
        >>> opt = opsdk.optimizer.AdamW(learning_rate=1e-3, parameters=model.parameters(),
        ...     weight_decay=0.01, apply_decay_param_fun=lambda n: "b_" not in n)
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=0.01, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode=False, multi_precision=False, amsgrad=False,
                 name=None):
        if hasattr(weight_decay, "item"):
            weight_decay = weight_decay.item()
        if not isinstance(weight_decay, (int, float)):
            raise OpArgumentError(f"AdamW: weight_decay must be a float coefficient; got: "
                                  f"{type(weight_decay).__name__}")
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip,
                         lazy_mode, multi_precision, False, amsgrad, name)
        self._coeff = float(weight_decay)
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun

    def _regularized(self, p, g, group):
        # decoupled: the decay is applied to the parameter in _decay, never to the gradient
        return g

    def _ratio(self, p):
        return 1.0 if self._lr_ratio is None else float(self._lr_ratio(p))

    def _coefficient(self, p, group):
        if self._apply_decay_param_fun is not None and not self._apply_decay_param_fun(p.name):
            return 0.0
        wd = group.get("weight_decay", self._coeff)
        return float(getattr(wd, "coeff", wd) or 0.0)

    def _update(self, p, g, lr, state, group):
        lr = lr * self._ratio(p)
        coeff = self._coefficient(p, group)
        if coeff:
            d = p.array
            d *= d.dtype.type(1.0 - lr * coeff)
        super()._update(p, g, lr, state, group)

    def _update_sparse(self, p, rows, values, lr, state, group):
        lr = lr * self._ratio(p)
        coeff = self._coefficient(p, group)
        if coeff:
            d = p.array
            factor = d.dtype.type(1.0 - lr * coeff)
            if self._lazy_mode:
                d[rows] *= factor
            else:
                d *= factor
        super()._update_sparse(p, rows, values, lr, state, group)

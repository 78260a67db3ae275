"""SGD: param -= lr * grad."""
from .optimizer import Optimizer


class SGD(Optimizer):
    """Plain stochastic gradient descent: ``param -= learning_rate * grad``.

    Args:
        learning_rate: float or LRScheduler (0.001 by default, as Paddle).
        parameters: the parameters (or parameter groups) to update.
        weight_decay: float L2 coefficient or a regularizer, added to the gradient.
        grad_clip: a ClipGrad* instance.

    Example:
        >>> w = opsdk.create_parameter([1], "float32",
        ...                            default_initializer=opsdk.nn.initializer.Constant(0.0))
        >>> opt = opsdk.optimizer.SGD(learning_rate=0.1, parameters=[w])
        >>> ((w - 3.0) ** 2).backward(); opt.step(); opt.clear_grad()
        >>> w.item()   # 0 - 0.1 * 2 * (0 - 3)
        0.6000000238418579
    """

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)

    def _update(self, p, g, lr, state, group):
        d = p.array
        d -= g * d.dtype.type(lr)

    def _update_sparse(self, p, rows, values, lr, state, group):
        d = p.array
        d[rows] -= values * d.dtype.type(lr)

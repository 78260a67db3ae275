"""Functions the registry tests register."""
import opsdk


class Swish(opsdk.PyLayer):
    """x * sigmoid(beta * x)."""

    @staticmethod
    def forward(ctx, x, beta=1.0):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return x * opsdk.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        s = opsdk.sigmoid(ctx.beta * x)
        return dy * (s + ctx.beta * x * s * (1 - s))


class Lerp(opsdk.PyLayer):
    @staticmethod
    def forward(ctx, a, b, *, weight):
        ctx.weight = weight
        return a + (b - a) * weight

    @staticmethod
    def backward(ctx, dy):
        return dy * (1 - ctx.weight), dy * ctx.weight


class NoBackward(opsdk.PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x

"""Activation layers: thin Layer wrappers over opsdk.nn.functional."""
from . import functional as F
from .layer import Layer


class ReLU(Layer):
    """max(x, 0)."""

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return F.relu(x)


class LeakyReLU(Layer):
    """x for x > 0, negative_slope * x otherwise."""

    def __init__(self, negative_slope=0.01, name=None):
        super().__init__()
        self._negative_slope = negative_slope

    def forward(self, x):
        return F.leaky_relu(x, self._negative_slope)

    def extra_repr(self):
        return f"negative_slope={self._negative_slope}"


class GELU(Layer):
    """x * Phi(x) (approximate=True: the tanh form)."""

    def __init__(self, approximate=False, name=None):
        super().__init__()
        self._approximate = approximate

    def forward(self, x):
        return F.gelu(x, self._approximate)

    def extra_repr(self):
        return f"approximate={self._approximate}"


class SiLU(Layer):
    """x * sigmoid(x); inplace=True writes it into the input."""

    def __init__(self, inplace=False, name=None):
        super().__init__()
        self._inplace = inplace

    def forward(self, x):
        return F.silu(x, self._inplace)


Swish = SiLU


class Sigmoid(Layer):
    """1 / (1 + exp(-x))."""

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return F.sigmoid(x)


class Tanh(Layer):
    """tanh(x)."""

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return F.tanh(x)


class Softmax(Layer):
    """softmax along axis."""

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis

    def forward(self, x):
        return F.softmax(x, self._axis)

    def extra_repr(self):
        return f"axis={self._axis}"


class LogSoftmax(Layer):
    """log_softmax along axis."""

    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis

    def forward(self, x):
        return F.log_softmax(x, self._axis)

    def extra_repr(self):
        return f"axis={self._axis}"

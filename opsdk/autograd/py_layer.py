"""paddle.autograd.py_layer: the module path older Paddle code imports PyLayer from."""
from .function import PyLayer, PyLayerContext, once_differentiable

__all__ = ["PyLayer", "PyLayerContext", "once_differentiable"]

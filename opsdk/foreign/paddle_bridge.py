"""Paddle: tensors over the samples' memory by DLPack (no copy), forward with gradients
recorded, gradients by ``paddle.grad`` (``create_graph`` for higher orders)."""
import numpy as np
import paddle

from .graph import Graph, as_outputs, check_types

FRAMEWORK = "paddle"


class Bridge:
    """What the generated Functions ask of Paddle."""

    framework = FRAMEWORK

    def tensor(self, array, requires_grad):
        if not isinstance(array, np.ndarray):
            return array
        if any(s < 0 for s in array.strides) or not array.flags.writeable:
            array = np.array(array, copy=True)
        t = paddle.utils.dlpack.from_dlpack(array)
        t.stop_gradient = not requires_grad
        return t

    def call(self, fn, arrays, diff, attrs, name):
        leaves = [self.tensor(a, d) for a, d in zip(arrays, diff)]
        with paddle.set_grad_enabled(True):
            result = fn(*leaves, **attrs)
        outputs, single = as_outputs(result, FRAMEWORK, name)
        check_types(outputs, paddle.Tensor, "paddle.Tensor", FRAMEWORK, name)
        return Graph(leaves, diff, outputs, single)

    def array(self, output, index):
        """The output's memory as a NumPy array (a view: an output aliasing an input shows)."""
        return np.from_dlpack(output.detach())

    def vjp(self, graph, given, cotangents, create):
        seeds = [self.tensor(np.asarray(c), create) for c in cotangents]
        pairs = [(graph.outputs[i], s) for i, s in zip(given, seeds)
                 if not graph.outputs[i].stop_gradient]
        wrt = [graph.leaves[i] for i in graph.diff_leaves]
        grads = [None] * len(wrt)
        if pairs:
            with paddle.set_grad_enabled(True):
                grads = paddle.grad([o for o, _ in pairs], wrt, [s for _, s in pairs],
                                    retain_graph=True, create_graph=create, allow_unused=True)
        # an input the outputs do not depend on has gradient zero, to every order
        grads = [paddle.zeros_like(w) if g is None else g for g, w in zip(grads, wrt)]
        return Graph(graph.leaves + seeds, graph.diff + [create] * len(seeds), grads)

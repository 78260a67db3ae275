"""Paddle: tensors over the samples' memory by DLPack (no copy; NumPy or CuPy arrays), forward
with gradients recorded, gradients by ``paddle.grad`` (``create_graph`` for higher orders).

The op runs with its inputs' place as Paddle's expected place (the CPU for the python backend,
even on a GPU build, whose default is the GPU), so tensors its code creates live where a user
running it there has them."""
from contextlib import nullcontext

import numpy as np
import paddle

from .device import arriving, device_array, holdable, is_device_array, on_device, warmed
from .graph import Graph, as_outputs, check_types

FRAMEWORK = "paddle"


class Bridge:
    """What the generated Functions ask of Paddle."""

    framework = FRAMEWORK

    def gpu_status(self):
        """``(True, '')`` when Paddle can run on a CUDA device here, else ``(False, why)``."""
        if not paddle.device.is_compiled_with_cuda():
            return False, (f"paddle {paddle.__version__} has no CUDA build (the GPU build is the "
                           "paddlepaddle-gpu package)")
        if paddle.device.cuda.device_count() < 1:
            return False, f"paddle {paddle.__version__} finds no CUDA device"
        return warmed("paddle", lambda: paddle.zeros([1]).cuda())

    def from_device(self, array):
        """A Paddle tensor over a device array's memory (DLPack: no copy)."""
        return paddle.utils.dlpack.from_dlpack(array)

    def tensor(self, array, requires_grad):
        """A Paddle tensor over ``array``'s memory, a NumPy or a device array (a copy only where
        Paddle cannot hold it: negative strides, read-only memory)."""
        if is_device_array(array):
            t = self.from_device(holdable(array))
        elif isinstance(array, np.ndarray):
            if any(s < 0 for s in array.strides) or not array.flags.writeable:
                array = np.array(array, copy=True)
            t = paddle.utils.dlpack.from_dlpack(array)
        else:
            return array
        t.stop_gradient = not requires_grad
        return t

    @staticmethod
    def _on_place_of(leaves):
        """Paddle's expected place set to the first input tensor's while the op runs."""
        for leaf in leaves:
            if isinstance(leaf, paddle.Tensor):
                return paddle.device.device_guard(leaf.place)
        return nullcontext()

    def call(self, fn, arrays, diff, attrs, name):
        leaves = [self.tensor(a, d) for a, d in zip(arrays, diff)]
        with paddle.set_grad_enabled(True), self._on_place_of(leaves):
            result = fn(*leaves, **attrs)
        outputs, single = as_outputs(result, FRAMEWORK, name)
        check_types(outputs, paddle.Tensor, "paddle.Tensor", FRAMEWORK, name)
        return Graph(leaves, diff, outputs, single, device=on_device(arrays))

    def array(self, output, index, device=False):
        """The output's memory as a NumPy array, or a device array when ``device`` (a view: an
        output aliasing an input shows)."""
        if device:
            return device_array(output.detach(), index, FRAMEWORK)
        return np.from_dlpack(output.detach())

    def vjp(self, graph, given, cotangents, create):
        seeds = [self.tensor(arriving(c), create) for c in cotangents]
        pairs = [(graph.outputs[i], s) for i, s in zip(given, seeds)
                 if not graph.outputs[i].stop_gradient]
        wrt = [graph.leaves[i] for i in graph.diff_leaves]
        grads = [None] * len(wrt)
        if pairs:
            with paddle.set_grad_enabled(True), self._on_place_of(graph.leaves):
                grads = paddle.grad([o for o, _ in pairs], wrt, [s for _, s in pairs],
                                    retain_graph=True, create_graph=create, allow_unused=True)
        # an input the outputs do not depend on has gradient zero, to every order
        grads = [paddle.zeros_like(w) if g is None else g for g, w in zip(grads, wrt)]
        return Graph(graph.leaves + seeds, graph.diff + [create] * len(seeds), grads,
                     device=graph.device)

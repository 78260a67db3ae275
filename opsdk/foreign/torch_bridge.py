"""torch: framework tensors over the samples' memory (``torch.from_numpy``, no copy; CuPy
arrays by ``torch.from_dlpack``), forward under ``enable_grad``, gradients by
``torch.autograd.grad`` (``create_graph`` for higher orders)."""
import numpy as np
import torch

from ..errors import OpArgumentError
from .device import arriving, device_array, holdable, is_device_array, on_device, warmed
from .graph import Graph, as_outputs, check_types

FRAMEWORK = "torch"


class Bridge:
    """What the generated Functions ask of torch."""

    framework = FRAMEWORK

    def gpu_status(self):
        """``(True, '')`` when torch can run on a CUDA device here, else ``(False, why)``."""
        if torch.version.cuda is None:
            return False, f"torch {torch.__version__} has no CUDA build"
        if not torch.cuda.is_available():
            return False, f"torch {torch.__version__} finds no CUDA device"
        return warmed("torch", lambda: torch.zeros(1, device="cuda"))

    def from_device(self, array):
        """A torch tensor over a device array's memory (DLPack: no copy)."""
        return torch.from_dlpack(array)

    def tensor(self, array, requires_grad):
        """A torch tensor over ``array``'s memory, a NumPy or (by DLPack) a device array (a copy
        only where torch cannot hold it: negative strides, read-only memory)."""
        if is_device_array(array):
            t = self.from_device(holdable(array))
        elif isinstance(array, np.ndarray):
            if any(s < 0 for s in array.strides) or not array.flags.writeable:
                array = np.array(array, copy=True)
            t = torch.from_numpy(array)
        else:
            return array  # a non-tensor argument in a tensor slot (None): the callable's to judge
        if requires_grad:
            t.requires_grad_(True)
        return t

    def call(self, fn, arrays, diff, attrs, name):
        leaves = [self.tensor(a, d) for a, d in zip(arrays, diff)]
        with torch.enable_grad():
            result = fn(*leaves, **attrs)
        outputs, single = as_outputs(result, FRAMEWORK, name)
        check_types(outputs, torch.Tensor, "torch.Tensor", FRAMEWORK, name)
        return Graph(leaves, diff, outputs, single, device=on_device(arrays))

    def array(self, output, index, device=False):
        """The output's memory as a NumPy array, or a device array when ``device`` (a view: an
        output aliasing an input shows)."""
        t = output.detach()
        if device:
            return device_array(t, index, FRAMEWORK)
        if t.device.type != "cpu":
            t = t.cpu()
        try:
            return t.numpy()
        except (TypeError, RuntimeError) as error:
            raise OpArgumentError(f"torch output {index} has dtype {t.dtype}, which NumPy cannot "
                                  f"hold: {error}") from None

    def vjp(self, graph, given, cotangents, create):
        """The gradients of the graph's differentiable leaves for the cotangents of the outputs
        at ``given``: a Graph over the leaves and the cotangents."""
        seeds = [self.tensor(arriving(c), create) for c in cotangents]
        # torch refuses an in-place write to a leaf that requires grad, which the seeds are when a
        # higher order is wanted: the op gets a copy, as a user's create_graph=True gives it a
        # non-leaf, and what its backward writes there is copied back to show as the user sees it
        given_seeds = [s.clone() if create else s for s in seeds]
        pairs = [(graph.outputs[i], s) for i, s in zip(given, given_seeds)
                 if graph.outputs[i].requires_grad]
        wrt = [graph.leaves[i] for i in graph.diff_leaves]
        grads = [None] * len(wrt)
        if pairs:
            with torch.enable_grad():
                grads = torch.autograd.grad([o for o, _ in pairs], wrt, [s for _, s in pairs],
                                            retain_graph=True, create_graph=create,
                                            allow_unused=True)
        if create:
            _copy_back_writes(seeds, given_seeds)
        # an input the outputs do not depend on has gradient zero, to every order
        grads = [torch.zeros_like(w, requires_grad=False) if g is None else g
                 for g, w in zip(grads, wrt)]
        return Graph(graph.leaves + seeds, graph.diff + [create] * len(seeds), grads,
                     device=graph.device)


def _copy_back_writes(seeds, given):
    """What backward wrote into the copies of the incoming gradients, into their memory."""
    with torch.no_grad():
        for seed, copy in zip(seeds, given):
            if not torch.equal(seed, copy):
                seed.detach().copy_(copy)

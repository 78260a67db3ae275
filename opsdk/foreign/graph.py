"""One computation recorded by a foreign framework: its leaves (inputs) and its outputs."""


class Graph:
    """Framework tensors: ``leaves`` (one per opsdk Tensor fed in, ``diff[i]`` when it needs a
    gradient), ``outputs`` (what the computation returned), ``single`` when it returned one
    tensor rather than a tuple; ``state`` is the bridge's own (JAX keeps the function here);
    ``device`` when the inputs were device arrays (the cuda backend: outputs go back as such).
    ``tensors``: the positions of the leaves that came from opsdk Tensors (an optional tensor
    argument given as None is a leaf too), in the order the Function got them."""

    __slots__ = ("leaves", "diff", "outputs", "single", "state", "tensors", "device")

    def __init__(self, leaves, diff, outputs, single=False, state=None, device=False):
        self.leaves = list(leaves)
        self.diff = list(diff)
        self.outputs = list(outputs)
        self.single = single
        self.state = state
        self.device = device
        self.tensors = list(range(len(self.leaves)))

    @property
    def diff_leaves(self):
        """Positions of the leaves that need a gradient."""
        return [i for i, d in enumerate(self.diff) if d]


def as_outputs(result, framework, name):
    """``(outputs, single)`` of what a foreign callable returned: one tensor or a tuple/list."""
    from ..errors import OpArgumentError

    if isinstance(result, (tuple, list)):
        if not result:
            raise OpArgumentError(f"foreign op '{name}' ({framework}) returned an empty "
                                  f"{type(result).__name__}; expected: a tensor or a tuple of them")
        return list(result), False
    return [result], True


def check_types(outputs, kind, kind_name, framework, name):
    """Raise OpArgumentError naming the output that is not a tensor of the framework."""
    from ..errors import OpArgumentError

    for i, o in enumerate(outputs):
        if not isinstance(o, kind):
            raise OpArgumentError(f"foreign op '{name}' ({framework}): output {i} is a "
                                  f"{type(o).__name__}; expected: {kind_name}")
    return outputs

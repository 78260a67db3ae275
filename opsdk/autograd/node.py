"""A node of the backward graph: one recorded op call."""
import threading


class _Running(threading.local):
    node = None


# the node whose Tensor rule (vjp) the engine is running now, in this thread: a rule that needs
# its own node's output finds the node here instead of keeping a reference to it (a cycle)
running = _Running()


class OutputWritten:
    """Stands in node.saved for an output of the node that was written in place after forward
    (the node's backward reads it). Never equal to any version, so backward raises."""

    __slots__ = ("shape", "dtype")
    _base = None
    _version = -1

    def __init__(self, data):
        self.shape = tuple(data.shape)
        self.dtype = data.dtype


class Node:
    """One op call recorded for backward.

    ``vjp(*grads)`` maps output gradients to input gradients with Tensor ops, so it is
    differentiable itself (create_graph); ``fast(*arrays)``, when an op has one, does the same on
    raw arrays for the usual first-order backward, skipping Tensor wrapping. ``edges[i]`` says
    where input i's gradient goes: ``(node, output_index)``, ``(leaf_tensor, -1)`` or None.
    """

    # rarely-set fields live in the class (defaults) and the lazily created __dict__
    __slots__ = ("name", "vjp", "fast", "edges", "saved", "__dict__", "__weakref__")
    n_out = 1
    pre_hooks = None
    site = None
    # the output indices whose values backward reads (set by record.save_output), or None
    reads_output = None
    # a PyLayer's node: Paddle ignores hooks registered on its outputs
    ignores_hooks = False
    # a PyLayer's node, after its rule ran: per input, True where the gradient was computed in
    # backward (a leaf's .grad made of it reports stop_gradient=True, as in Paddle)
    cut_grads = None
    # {output index: (zeros, shape, dtype)} for hooked outputs of a multi-output node
    hooked_outputs = None

    def __init__(self, name, vjp, fast, edges, saved, n_out=1, site=None):
        self.name = name
        self.vjp = vjp
        self.fast = fast
        self.edges = edges
        self.saved = saved
        if n_out != 1:
            self.n_out = n_out
        if site is not None:
            self.site = site

    def output_written(self, t):
        """Output ``t`` of this node was written in place: its backward must refuse to run."""
        if t._out_idx in self.reads_output and self.vjp is not None:
            entry = ((OutputWritten(t._data), None),)
            self.saved = entry if self.saved is None else self.saved + entry
            self.reads_output = None  # once is enough

    def release(self):
        """Drop what backward needed; the node stays as a marker that the graph was freed."""
        self.vjp = None
        self.fast = None
        self.saved = None

    def add_pre_hook(self, index, fn):
        if self.pre_hooks is None:
            self.pre_hooks = {}
        self.pre_hooks.setdefault(index, []).append(fn)

    def __repr__(self):
        return f"<Node {self.name}>"


class OutputReadingNode(Node):
    """A one-output node whose backward reads its own output (exp, tanh, ...)."""

    __slots__ = ()
    reads_output = frozenset((0,))

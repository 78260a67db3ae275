"""A node of the backward graph: one recorded op call (made by autograd.record)."""


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

    ``rule`` gives the inputs' gradients from the output's: a tuple with one function per input,
    ``rule[i](g, *args)``, or one function giving them all, ``rule(g, *args)`` -> a tuple.
    ``args`` are the values the rules read (see autograd.record): a list when it holds saved
    Tensors or the node's own output (the engine hands the rule their values), else a tuple of
    constants. ``edges[i]`` says where input i's gradient goes: ``(node,
    output_index)``, ``(leaf_tensor, -1)`` or None; ``saved`` holds (tensor, version) pairs
    checked before the rule runs.
    """

    # What backward reads at every node is a slot (a class default read through an instance
    # is a slow lookup); rarely-read fields live in the class (defaults) and the lazily
    # created __dict__. One class for every node: CPython specializes attribute access per
    # class, and a graph alternating between two classes would undo it at every node.
    #   n_out: the number of outputs;
    #   shapes: per input, the shape its gradient is summed back to (a broadcasting op), or None;
    #   pre_hooks: {output index: hooks on its gradient}, or None;
    #   out: the output array of a one-output node whose rule reads it (exp, tanh, ...; the
    #     engine hands it to the rule where its args name ``OUTPUT``), else None;
    #   reads_output: the output indices whose values backward reads, or None.
    __slots__ = ("name", "rule", "edges", "args", "saved", "n_out", "shapes", "pre_hooks",
                 "out", "reads_output", "__dict__", "__weakref__")
    # args holds saved_tensors_hooks' packed tensors (unpacked when backward runs)
    packed = False
    site = None
    # a PyLayer's node, after its rule ran: per input, True where the gradient was computed in
    # backward (a leaf's .grad made of it reports stop_gradient=True, as in Paddle)
    cut_grads = None
    # {output index: (zeros, shape, dtype)} for hooked outputs of a multi-output node
    hooked_outputs = None

    def __init__(self, name, rule, edges, args=(), saved=None, n_out=1, site=None):
        self.name = name
        self.rule = rule
        self.edges = edges
        self.args = args
        self.saved = saved
        self.shapes = self.pre_hooks = self.out = self.reads_output = None
        self.n_out = n_out
        if site is not None:
            self.site = site

    def output_written(self, t):
        """Output ``t`` of this node was written in place: its backward must refuse to run."""
        if t._out_idx in self.reads_output and self.rule is not None:
            entry = ((OutputWritten(t._data), None),)
            self.saved = entry if self.saved is None else self.saved + entry
            self.reads_output = None  # once is enough

    def __repr__(self):
        return f"<Node {self.name}>"


# reads_output of a one-output node whose rule reads its output
READS_OUTPUT = frozenset((0,))

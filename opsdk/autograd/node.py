"""A node of the backward graph: one recorded op call."""


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

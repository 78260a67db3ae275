"""Nested structures (tuples and lists) of Tensors, as recurrent layers pass states around:
flatten one, or map a function over the leaves of one or more of the same shape."""


def _is_nest(x):
    return isinstance(x, (list, tuple))


def flatten(structure, leaf=None):
    """The leaves of a nested tuple/list, depth first (a non-sequence is one leaf)."""
    if _is_nest(structure) and not (leaf and leaf(structure)):
        return [x for item in structure for x in flatten(item, leaf)]
    return [structure]


def map_structure(fn, *structures, leaf=None):
    """fn over the matching leaves of structures; the result keeps the first one's nesting
    (tuples stay tuples, lists lists)."""
    first = structures[0]
    if _is_nest(first) and not (leaf and leaf(first)):
        items = [map_structure(fn, *parts, leaf=leaf) for parts in zip(*structures)]
        return type(first)(items)
    return fn(*structures)

"""Memos of what a run finds once per op (its modules, state, samples, backends).

Keyed by the op's id, as ops need not be hashable; each entry holds the op itself, so the id
cannot be reused while the entry lives: a freed op's id taken by a new op of the same qualname
(tests register packs again under the same names) would hand the new op the old one's findings.
"""


def once_per_op(memo, op, *key, make):
    """``make()``'s value for ``(op, *key)``, computed the first time and kept in ``memo``."""
    full = (id(op), getattr(op, "qualname", None), *key)
    entry = memo.get(full)
    if entry is None or entry[0] is not op:
        entry = memo[full] = (op, make())
    return entry[1]

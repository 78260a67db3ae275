"""Memos per op: computed once, and never handed to another op that took a freed op's id."""
import types

from opsdk.verification.check.per_op import once_per_op


def _op():
    return types.SimpleNamespace(qualname="t.op")


def test_the_value_is_made_once_per_op_and_key():
    memo, made = {}, []
    op = _op()
    for _ in range(3):
        once_per_op(memo, op, "float64", make=lambda: made.append(1) or len(made))
    assert made == [1]
    assert once_per_op(memo, op, "float32", make=lambda: "other") == "other"


def test_the_memo_keeps_the_op_alive_so_its_id_is_not_reused():
    memo = {}
    once_per_op(memo, _op(), make=lambda: "first")
    (entry,) = memo.values()
    assert entry[0].qualname == "t.op"  # the op is held: CPython cannot give its id to another


def test_an_entry_under_an_id_of_another_op_is_not_handed_over():
    # what a memo keyed by id alone did: a new op of the same qualname at a freed op's address
    memo, old, new = {}, _op(), _op()
    memo[(id(new), "t.op")] = (old, "old op's modules")
    assert once_per_op(memo, new, make=lambda: "new op's modules") == "new op's modules"

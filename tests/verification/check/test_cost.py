"""What a derived size may cost: an op's max_size= and cost= bound it, with a note."""
import math
from types import SimpleNamespace

from opsdk.verification.check.cost import capped_note, size_limit
from opsdk.packs.registry.verification_options import parse_cost


def _op(max_size=None, cost=None):
    return SimpleNamespace(max_size=max_size, cost=None if cost is None else parse_cost(cost))


def test_an_op_declaring_nothing_is_unbounded():
    assert size_limit(_op()) == (math.inf, "")


def test_max_size_caps_every_derived_dimension():
    assert size_limit(_op(max_size=300)) == (300, "max_size=300")


def test_a_declared_cost_gives_the_largest_size_its_work_budget_affords():
    assert size_limit(_op(cost="n^2"))[0] == 4096  # 2^24 units of array work
    assert size_limit(_op(cost="sequential n^2"))[0] == 362  # 2^17 Python steps
    assert size_limit(_op(cost="sequential n"))[0] == 1 << 17
    limit, why = size_limit(_op(max_size=1000, cost="n^3"))
    assert limit == 256 and why.startswith("cost='n^3'")


def test_the_note_names_the_sizes_left_out_and_why():
    assert capped_note("sizes", [4099, 65537], "max_size=300") == \
        "sizes 4099, 65537 not derived: above what max_size=300 allows"

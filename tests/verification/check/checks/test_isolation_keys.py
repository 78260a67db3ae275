"""isolation's keyed calls: a cache keyed on part of the call (an attribute, an input's values,
the dtype) is named with what its key forgets; caches keyed on everything pass."""
import pytest

import opsdk
from opsdk import TensorSpec

from ..adversarial_regimes.pack import module
from ..helpers import verdict

bugs, caches = module("bugs_caches"), module("caches")
ROPE, ROWS = caches.ROPE, caches.ROWS
BOTH = ("float32", "float64")


def _failed_with(result, words):
    assert result.status == "fail", result.detail
    assert f"a cache keyed on part of the call forgets {words}" in result.detail, result.detail


def test_a_float_attribute_the_key_forgets_is_named_with_both_values(pack):
    result = verdict(pack, bugs.RopeBaseCache, "isolation", inputs=ROPE, attrs={"base": 10000.0})
    _failed_with(result, "the attribute 'base': the call with base=11731.0 made after a call "
                         "with base=10000.0 (same shapes, dtype and values)")
    assert "bugs_caches._ROPE (changed: dict of" in result.detail  # the state its calls changed


def test_a_flag_the_key_forgets_is_named(pack):
    result = verdict(pack, bugs.CumsumFlagCache, "isolation", inputs=ROWS,
                     attrs={"reverse": False})
    _failed_with(result, "the attribute 'reverse': the call with reverse=True")


def test_an_index_the_samples_fix_is_varied_one_element_at_a_time(pack):
    # the op's samples fix segment_ids: the interleaving partner keeps them, so its counts
    result = verdict(pack, bugs.SegmentCountsCache, "isolation", samples=caches.segment_samples)
    _failed_with(result, "the values of 'segment_ids': the call with segment_ids[0] = 2 made "
                         "after a call with segment_ids[0] = 0")


@pytest.mark.parametrize("dtype", BOTH)
def test_the_dtype_the_key_forgets_is_caught_in_a_run_of_either_dtype_alone(pack, dtype):
    # a float64 table after float32 calls loses precision; the other order (float32 results
    # from a float64 table) can round to the same values, so both orders are called
    result = verdict(pack, bugs.PosencDtypeCache, "isolation", dtype=dtype,
                     inputs=[TensorSpec(shape=(4, 6))], dtypes=BOTH)
    other = "float64" if dtype == "float32" else "float32"
    _failed_with(result, "the dtype: the call in ")
    assert any(f"the dtype: the call in {a} made after a call in {b}" in result.detail
               for a, b in ((dtype, other), (other, dtype)))


@pytest.mark.parametrize("function, options", [
    (caches.RopeCached, {"inputs": ROPE, "attrs": {"base": 10000.0}}),
    (caches.CumsumCached, {"inputs": ROWS, "attrs": {"reverse": False}}),
    (caches.SegmentCached, {"samples": caches.segment_samples}),
    (caches.PosencCached, {"inputs": [TensorSpec(shape=(4, 6))]}),
], ids=["attribute", "flag_and_dtype_cast_on_use", "index_bytes", "functools_cache"])
@pytest.mark.parametrize("dtype", BOTH)
def test_caches_keyed_on_everything_they_depend_on_pass(pack, function, options, dtype):
    result = verdict(pack, function, "isolation", dtype=dtype, dtypes=BOTH, **options)
    assert result.status == "pass", result.detail


_CALLS = []


class Counted(opsdk.PyLayer):
    """x * eps, keeping no state: the keyed calls cost it one call."""

    @staticmethod
    def forward(ctx, x, eps=0.5):
        _CALLS.append(eps)
        ctx.eps = eps
        return opsdk.to_tensor(x.numpy() * eps)

    @staticmethod
    def backward(ctx, dy):
        return opsdk.to_tensor(dy.numpy() * ctx.eps)


def test_an_op_whose_calls_leave_no_state_gets_no_keyed_calls(pack, monkeypatch):
    from opsdk.verification.check.checks import isolation_keys

    seen = []
    original = isolation_keys._attribute_neighbours
    monkeypatch.setattr(isolation_keys, "_attribute_neighbours",
                        lambda ctx: seen.append(ctx) or original(ctx))
    result = verdict(pack, Counted, "isolation", inputs=[TensorSpec(shape=(3,))],
                     attrs={"eps": 0.5})
    # _CALLS grows, but a test module's lists are no op's state
    assert result.status == "pass" and seen == [] and _CALLS

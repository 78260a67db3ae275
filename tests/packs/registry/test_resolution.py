"""Lookup errors: close names and the packs that failed to load."""
from opsdk.errors import AmbiguousOpError, OpNotFoundError
from opsdk.packs.loading.failures import PluginFailure
from opsdk.packs.registry.resolution import ambiguous, not_found


def _failure(pack):
    return PluginFailure.capture(pack, None, None, "import", ImportError(f"{pack} is broken"))


def test_not_found_suggests_up_to_three_close_names():
    error = not_found("swish", ["swiss", "swisha", "swishy", "relu", "swash"], [])
    assert isinstance(error, OpNotFoundError)
    hint = str(error).split("did you mean: ")[1].split("?")[0].split(", ")
    assert len(hint) == 3 and "relu" not in hint


def test_not_found_without_close_names_gives_no_hint():
    assert "did you mean" not in str(not_found("zzz", ["relu"], []))


def test_qualified_name_of_a_failed_pack_mentions_only_that_failure():
    text = str(not_found("broken.op", [], [_failure("broken"), _failure("other")]))
    assert "broken (import: ImportError: broken is broken)" in text and "other" not in text


def test_short_name_mentions_every_failed_pack_up_to_three():
    text = str(not_found("op", [], [_failure(f"p{i}") for i in range(5)]))
    assert "p0" in text and "p2" in text and "p3 (" not in text and "and 2 more" in text


def test_ambiguous_lists_candidates_sorted():
    error = ambiguous("swish", ["b.swish", "a.swish"])
    assert isinstance(error, AmbiguousOpError)
    assert "a.swish, b.swish" in str(error) and "2 packs" in str(error)

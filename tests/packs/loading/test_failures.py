"""PluginFailure records: what `opsdk list` and `opsdk doctor` show about packs that did not load."""
from opsdk.packs.loading.failures import PluginFailure


def _raise_and_capture():
    try:
        raise ValueError("bad value")
    except ValueError as error:
        return PluginFailure.capture("pk", "pk-dist", "1.0", "hook", error)


def test_capture_keeps_the_formatted_traceback():
    failure = _raise_and_capture()
    assert "_raise_and_capture" in failure.traceback and "ValueError: bad value" in failure.traceback


def test_str_is_one_line_naming_pack_source_stage_and_error():
    assert str(_raise_and_capture()) == "pack 'pk' (pk-dist 1.0) failed at hook: ValueError: bad value"


def test_pack_without_distribution_is_in_process():
    failure = PluginFailure.capture("pk", None, None, "import", ImportError("x"))
    assert failure.source == "in-process"

import xml.etree.ElementTree as ET

from opsdk.verification.check.render import to_junit_xml
from opsdk.verification.check.result import CheckResult


def _cases(results):
    root = ET.fromstring(to_junit_xml(results))
    return root, {c.get("name"): c for c in root.iter("testcase")}


def test_each_status_maps_to_its_junit_element():
    root, cases = _cases([
        CheckResult("p.op", "c", "float32", "forward", "fail", detail="differs\nmore"),
        CheckResult("p.op", "c", "float32", "hooks", "error", detail="boom"),
        CheckResult("p.op", "cuda", "float32", "hooks", "skip", detail="no GPU"),
        CheckResult("p.op", "c", "float32", "materialize_grads", "n/a", detail="one output"),
        CheckResult("p.op", "c", "float64", "forward", "pass"),
    ])
    assert cases["c-float32-forward"].find("failure").get("message") == "differs"
    assert cases["c-float32-hooks"].find("error") is not None
    assert cases["cuda-float32-hooks"].find("skipped").get("message") == "no GPU"
    assert cases["c-float32-materialize_grads"].find("skipped").get("message") == "not applicable: one output"
    assert list(cases["c-float64-forward"]) == []
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("5", "1", "1", "2")


def test_load_failure_is_a_failed_testcase_of_its_pack_and_control_characters_are_escaped():
    root, cases = _cases([CheckResult("broken", "-", "-", "load", "fail",
                                      detail="ImportError\x1b[31m caf\udce9")])
    assert root.find("testsuite").get("name") == "broken"
    # XML 1.0 cannot hold ESC, nor UTF-8 a lone surrogate: both shown as escapes, not dropped
    assert cases["load"].find("failure").text == "ImportError\\x1b[31m caf\\udce9"

import json

from opsdk.verification.check.render import to_json
from opsdk.verification.check.result import CheckResult


def test_json_has_ok_summary_and_results():
    results = [CheckResult("p.op", "c", "float32", "forward", "fail", worst=0.5, detail="x")]
    document = json.loads(to_json(results, seconds=2.0))
    assert document["ok"] is False
    assert document["summary"]["fail"] == 1 and document["summary"]["seconds"] == 2.0
    assert document["results"][0]["worst_error"] == 0.5 and document["results"][0]["check"] == "forward"

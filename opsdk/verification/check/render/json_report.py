"""The JSON report (``opsdk check --json``): a summary and every result."""
import json

from ..result import summarize


def to_json(results, seconds=None):
    """The results as a JSON document.

    Returns:
        str: ``{"ok": bool, "summary": {status: count, "seconds": s}, "results": [...]}``, one
        result per op x backend x dtype x check (plus a ``load`` result per failed pack).
    """
    summary = dict(summarize(results))
    if seconds is not None:
        summary["seconds"] = round(seconds, 3)
    document = {"ok": not any(r.failed for r in results), "summary": summary,
                "results": [r.as_dict() for r in results]}
    return json.dumps(document, indent=2)

"""JUnit XML (``opsdk check --junit-xml FILE``): a testsuite per pack, a testcase per check."""
import xml.etree.ElementTree as ET

from ..result import BLOCKED, ERROR, FAIL, NA, SKIP

from ....printable import printable


def _clean(text):
    # XML 1.0 cannot hold most control characters, nor can UTF-8 a lone surrogate; compiler
    # output, tracebacks and an op's own messages may have them: they become visible escapes
    return printable(text or "")


def _first_line(text):
    lines = _clean(text).strip().splitlines()
    return lines[0] if lines else ""


def _testcase(result):
    if result.check == "load":
        case = ET.Element("testcase", classname=_clean(result.op), name="load")
    else:
        case = ET.Element("testcase", classname=result.op,
                          name=f"{result.backend}-{result.dtype}-{result.check}")
    case.set("time", f"{result.seconds:.4f}")
    if result.status in (FAIL, BLOCKED):
        child = ET.SubElement(case, "failure", message=_first_line(result.detail), type=result.status)
        child.text = _clean(result.detail)
    elif result.status == ERROR:
        child = ET.SubElement(case, "error", message=_first_line(result.detail))
        child.text = _clean(result.detail)
    elif result.status in (SKIP, NA):
        prefix = "not applicable: " if result.status == NA else ""
        ET.SubElement(case, "skipped", message=prefix + _first_line(result.detail))
    return case


def to_junit_xml(results):
    """The results as a JUnit XML document (str), readable by CI systems.

    Example::

        Path("check.xml").write_text(to_junit_xml(results))
    """
    root = ET.Element("testsuites", name="opsdk check")
    suites = {}
    for result in results:
        pack = _clean(result.op.split(".", 1)[0])
        if pack not in suites:
            suites[pack] = ET.SubElement(root, "testsuite", name=pack)
        suites[pack].append(_testcase(result))
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in [*suites.values()]:
        cases = list(suite)
        counts = {"tests": len(cases),
                  "failures": sum(1 for c in cases if c.find("failure") is not None),
                  "errors": sum(1 for c in cases if c.find("error") is not None),
                  "skipped": sum(1 for c in cases if c.find("skipped") is not None)}
        seconds = sum(float(c.get("time")) for c in cases)
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{seconds:.4f}")
    for key, value in totals.items():
        root.set(key, str(value))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

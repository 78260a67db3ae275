"""Tables of bad inputs in the docs, read by the tests that drive each row (one source of truth:
the documented exit status and message are what the test expects)."""
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def table_rows(doc, marker):
    """{input cell: (exit cell, message)} of the Markdown table after ``<!-- marker:`` in docs/doc."""
    text = (DOCS / doc).read_text(encoding="utf-8").split(f"<!-- {marker}:", 1)[1]
    rows = {}
    for line in text.splitlines()[3:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0]] = (cells[1], cells[2].strip("`"))
    return rows


def expect_row(rows, row, exit_code, output):
    """Assert that a row's input gave the documented exit status ("raises": any) and message,
    and no traceback."""
    documented_exit, message = rows[row]
    if documented_exit != "raises":
        assert exit_code == int(documented_exit), output
    assert message in output, output
    assert "Traceback (most recent call last)" not in output

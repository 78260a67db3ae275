"""Pack text made safe to print: what a terminal would obey or an encoder refuse becomes an escape."""
import pytest

from opsdk.printable import printable


@pytest.mark.parametrize("raw, shown", [
    ("\x1b[2K\x1b[32mok", "\\x1b[2K\\x1b[32mok"),        # erase the line, then colour
    ("FAIL\rok  ", "FAIL\\x0dok  "),                      # a carriage return overwriting a verdict
    ("bell\x07 nul\x00 del\x7f", "bell\\x07 nul\\x00 del\\x7f"),
    ("\x9b31m", "\\x9b31m"),                              # the one-byte CSI of C1
    ("abc\u202edcba", "abc\\u202edcba"),                  # a right-to-left override
    ("caf\udce9", "caf\\udce9"),                          # a lone surrogate: no encoder takes it
])
def test_unsafe_characters_are_shown_as_escapes(raw, shown):
    assert printable(raw) == shown
    printable(raw).encode("utf-8")


def test_newlines_tabs_and_ordinary_unicode_stay():
    text = "line 1\n\tline 2 — naïve 数学 ∂y/∂x"
    assert printable(text) is text


def test_anything_is_turned_into_text():
    assert printable(ValueError("x\x1b")) == "x\\x1b"

"""Text from packs (summaries, error messages, tracebacks) made safe to print and to write.

A pack's docstring or error message may hold terminal control sequences (ESC, BEL, a carriage
return that overwrites "FAIL" with "ok"), NUL, bidirectional overrides, or lone surrogates that no
encoder accepts. opsdk shows such characters as Python escapes (``\\x1b``, ``\\udc80``) wherever it
prints or writes pack-provided text; newlines and tabs stay.
"""
import re

# C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI), bidirectional
# embeddings, overrides and isolates, and lone surrogates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match):
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text):
    """``text`` with every character a terminal or an encoder could misread shown as an escape.

    Example:
        >>> printable("ok\\x1b[2K\\rFAIL \\udc80")
        'ok\\\\x1b[2K\\\\x0dFAIL \\\\udc80'
    """
    text = str(text)
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text

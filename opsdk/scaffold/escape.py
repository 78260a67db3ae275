"""Jinja filters for free text (a formula, the command that wrote an op) where templates put it.

Names are identifiers, checked before they reach a template (``context.check_context``); free
text is escaped for the language it lands in, so no text can end a docstring or a comment and
run as code.
"""


def docstring(text):
    """``text`` inside a ``\"\"\"...\"\"\"`` Python docstring: quotes and backslashes escaped, so it
    reads the same and cannot end the string; control characters written as escapes."""
    out = []
    for char in str(text):
        if char in '\\"':
            out.append("\\" + char)
        elif char != "\n" and not char.isprintable():
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
                       if ord(char) < 0x10000 else f"\\U{ord(char):08x}")
        else:
            out.append(char)
    return "".join(out)


def c_comment(text):
    """``text`` inside a ``/* ... */`` C or CUDA comment: it can neither end nor open one."""
    text = "".join(c if c == "\n" or c.isprintable() else "?" for c in str(text))
    while "*/" in text or "/*" in text:
        text = text.replace("*/", "* /").replace("/*", "/ *")
    return text


FILTERS = {"docstring": docstring, "c_comment": c_comment}

"""Editing a generated op's maths in place, and reading which generated tests then fail."""


def rewrite(path, replacements):
    """Replace each old text by its new one in ``path``; each must be there as generated."""
    text = path.read_text()
    for old, new in replacements.items():
        assert old in text, f"the generated op no longer has {old!r}: update this test with the template"
        text = text.replace(old, new)
    path.write_text(text)


def only_c_failed(stdout):
    """Whether some tests failed and every one was a C-backend case (``test_x[c-float64]``)."""
    failed = {line.split("::")[1].split(" ")[0] for line in stdout.splitlines() if line.startswith("FAILED ")}
    return bool(failed) and all("c" in name.split("[")[1].rstrip("]").split("-") for name in failed)

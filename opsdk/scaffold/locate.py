"""Where the templates are: inside the wheel (``opsdk/_templates``) or the checkout's ``templates/``."""
import os
from pathlib import Path

from ..errors import TemplateError

ENV_VAR = "OPSDK_TEMPLATES_DIR"
VERSION_FILE = "VERSION"


def _candidates():
    package = Path(__file__).resolve().parent.parent
    override = os.environ.get(ENV_VAR)
    if override:
        return [Path(override)]
    # an installed wheel carries them as package data; a checkout (and an editable install)
    # has them at the top level, where `opsdk/_templates` links to
    return [package / "_templates", package.parent / "templates"]


def templates_dir():
    """The directory holding the ``pack/`` and ``op/`` templates and their VERSION.

    ``$OPSDK_TEMPLATES_DIR`` overrides it (for template authors).

    Returns:
        Path of the templates directory.

    Raises:
        TemplateError: no candidate holds templates (a broken install).

    Example::

        (templates_dir() / "pack").is_dir()     # True
    """
    candidates = _candidates()
    for candidate in candidates:
        if (candidate / VERSION_FILE).is_file():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise TemplateError(f"cannot find opsdk's templates; expected: a directory with a {VERSION_FILE} "
                        f"file and pack/ and op/ templates at one of: {tried}; got: none there "
                        f"(reinstall opsdk, or set {ENV_VAR})")


def template_version(root=None):
    """The version of the templates (the text of their VERSION file), recorded in every pack.

    Example::

        template_version()      # '1'
    """
    root = templates_dir() if root is None else Path(root)
    return (root / VERSION_FILE).read_text(encoding="utf-8").strip()

"""``.opsdk-answers.json``: the template version and answers a pack (and each of its ops) was made from."""
import json
from pathlib import Path

from ..errors import NotAPackError

ANSWERS_FILE = ".opsdk-answers.json"
NOTE = ("Written by `opsdk new-pack` and `opsdk new-op`: the templates and answers this pack was "
        "generated from. Keep it under version control; new-op reads it.")
_PACK_KEYS = ("name", "package", "distribution")


def new_answers(pack, opsdk_version, template_version):
    """The answers of a new pack: ``pack`` holds its name, package and distribution."""
    return {"note": NOTE, "opsdk_version": opsdk_version, "template_version": template_version,
            "pack": dict(pack), "ops": {}}


def dump_answers(answers):
    """The file's text: stable key order, so a diff shows only what a command changed."""
    return (json.dumps(answers, indent=2, sort_keys=True) + "\n").encode("utf-8")


def find_pack_root(start):
    """The pack directory holding ``start``: ``start`` or the nearest parent with an answers file.

    Raises:
        NotAPackError: no such directory, or none of them was made by ``opsdk new-pack``.

    Example::

        find_pack_root("mypack/src/mypack")     # Path('.../mypack')
    """
    start = Path(start).resolve()
    if not start.is_dir():
        raise NotAPackError(f"pack directory {str(start)!r} does not exist; expected: the directory "
                            f"of a pack made by `opsdk new-pack` (--pack DIR); got: {str(start)!r}")
    for folder in (start, *start.parents):
        if (folder / ANSWERS_FILE).is_file():
            return folder
    raise NotAPackError(f"{str(start)!r} is not inside an opsdk pack; expected: a directory made by "
                        f"`opsdk new-pack NAME` (it holds {ANSWERS_FILE}); run new-op inside it or "
                        f"pass --pack DIR; got: no {ANSWERS_FILE} there or in a parent directory")


def read_answers(root):
    """The answers file of the pack at ``root``, checked.

    Raises:
        NotAPackError: the file is missing, not JSON, or lacks the pack's fields.
    """
    path = Path(root) / ANSWERS_FILE
    try:
        answers = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotAPackError(f"{str(root)!r} is not an opsdk pack; expected: {ANSWERS_FILE} (written "
                            f"by `opsdk new-pack`); got: no such file") from None
    except (OSError, ValueError) as error:
        raise NotAPackError(f"{path} cannot be read; expected: the JSON `opsdk new-pack` wrote; "
                            f"got: {error}") from None
    pack = answers.get("pack") if isinstance(answers, dict) else None
    missing = [key for key in _PACK_KEYS if not isinstance((pack or {}).get(key), str)]
    if missing or not isinstance(answers.get("ops", {}), dict):
        raise NotAPackError(f"{path} is damaged; expected: pack.{', pack.'.join(_PACK_KEYS)} and an "
                            f"'ops' table; got: missing {', '.join(missing) or 'ops'}")
    answers.setdefault("ops", {})
    return answers

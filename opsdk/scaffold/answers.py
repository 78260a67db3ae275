"""``.opsdk-answers.json``: the template version and answers a pack (and each of its ops) was made from."""
import json
from pathlib import Path

from ..errors import AnswersFileError, InvalidNameError, NotAPackError
from .names import DISTRIBUTION, VERSION, check_identifier
from .paths import check_directory

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
    check_directory(str(start), "--pack")
    try:
        return _pack_root(Path(start).resolve())
    except OSError as error:  # a name too long, a loop of links: not a directory to work in
        raise NotAPackError(f"pack directory {_shown(start)} cannot be used; expected: the directory of a "
                            f"pack made by `opsdk new-pack` (--pack DIR); got: {error.strerror}") from None


def _pack_root(start):
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
        AnswersFileError: a value is not what new-pack writes (a name that is not an identifier,
            a malformed version): it would land in generated code.
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
    _check_values(answers, path)
    return answers


def _check_values(answers, path):
    """Check every value new-op takes from the file as the command line's are checked: names
    are identifiers, versions are versions. The file is text anyone can edit; its values land in
    generated code."""
    def refuse(field, problem):
        raise AnswersFileError(f"{path}: {field} cannot be used: {problem}; fix the file (or make the "
                               f"pack again with `opsdk new-pack`)")

    pack = answers["pack"]
    for key, what in (("name", "pack name"), ("package", "package name")):
        try:
            check_identifier(pack[key], what)
        except InvalidNameError as error:
            refuse(f"pack.{key}", error)
    if not DISTRIBUTION.match(pack["distribution"]):
        refuse("pack.distribution", f"{pack['distribution']!r} is not a distribution name; expected: "
                                    f"letters, digits, '.', '_' and '-' (PEP 508), e.g. 'opsdk-my-ops'")
    for key in ("opsdk_version", "template_version"):
        value = answers.get(key, "0")
        if not isinstance(value, str) or not VERSION.match(value):
            refuse(key, f"{value!r} is not a version; expected: e.g. '0.1.0'")
    for op, entry in answers["ops"].items():
        try:
            check_identifier(op, "op name")
        except InvalidNameError as error:
            refuse(f"ops[{op!r}]", error)
        if not isinstance(entry, dict):
            refuse(f"ops[{op!r}]", f"{entry!r} is not a table; expected: the op's answers as new-op wrote them")


def _shown(path):
    text = str(path)
    return repr(text) if len(text) <= 80 else repr(text[:40] + "..." + text[-30:])

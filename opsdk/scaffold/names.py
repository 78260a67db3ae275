"""Name checks for packs and ops, and the names derived from them (package, distribution, class)."""
import importlib.util
import keyword
import sys

from ..errors import InvalidNameError

BACKENDS = ("python", "c", "cuda")

# the built-in pack, and names a pack's top-level package must not shadow in tests
_RESERVED_PACKS = {"opsdk", "test", "tests"}
# names ops/__init__.py defines: an op module of that name would replace them on import
_RESERVED_OPS = {"OPS", "register_all", "importlib"}
_IMPORTED_CLASSES = {"Kernel", "CSource", "CudaSource", "TensorSpec"}
_IDENTIFIER = "a Python identifier (letters, digits and '_', not starting with a digit) that is not a keyword"


# longer names make file names (".test_<op>.py.opsdk-<pid>.new", staging dirs) some systems refuse
MAX_NAME = 64
# file names Windows refuses whatever the extension: a pack or op called so cannot be checked out there
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                     *(f"lpt{i}" for i in range(1, 10))}


def _check_portable(name, what):
    """Refuse names that are identifiers but not portable: too long, non-ASCII, reserved on Windows."""
    if len(name) > MAX_NAME:
        raise InvalidNameError(f"{what} '{name[:20]}...' is too long: {len(name)} characters; "
                               f"expected: at most {MAX_NAME}; got: {len(name)}")
    if not name.isascii():
        import unicodedata

        plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        plain = "".join(c if c.isalnum() or c == "_" else "_" for c in plain).strip("_")
        example = f", e.g. '{plain}'" if plain.isidentifier() and not keyword.iskeyword(plain) else ""
        others = "".join(sorted({c for c in name if not c.isascii()}))
        raise InvalidNameError(f"{what} {name!r} is not ASCII ({others!r}); expected: ASCII letters, "
                               f"digits and '_' (Python package and distribution names must be "
                               f"ASCII){example}; got: {name!r}")
    if name.lower() in _WINDOWS_RESERVED:
        raise InvalidNameError(f"{what} {name!r} is a reserved file name on Windows (CON, PRN, AUX, "
                               f"NUL, COM1-9, LPT1-9), so the pack could not be used there; expected: "
                               f"another name, e.g. '{name}_{'ops' if what.startswith('pack') else 'op'}'; got: {name!r}")


def _check_identifier(name, what):
    if isinstance(name, str) and name.isidentifier():
        _check_portable(name, what)
    if not isinstance(name, str) or not name.isidentifier() or not name.isascii():
        suggestion = ""
        if isinstance(name, str):
            fixed = "".join(c if c.isalnum() and c.isascii() else "_" for c in name).strip("_")
            if fixed and not fixed[0].isdigit() and fixed.isidentifier():
                suggestion = f", e.g. '{fixed}'"
        raise InvalidNameError(f"{what} {name!r} is not a valid name; expected: {_IDENTIFIER}"
                               f"{suggestion}; got: {name!r}")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise InvalidNameError(f"{what} {name!r} is a Python keyword; expected: {_IDENTIFIER}, "
                               f"e.g. '{name}_op'; got: {name!r}")
    if name.startswith("_"):
        raise InvalidNameError(f"{what} {name!r} starts with '_', which opsdk keeps for private "
                               f"names; expected: {_IDENTIFIER}, e.g. '{name.lstrip('_') or 'op'}'; "
                               f"got: {name!r}")


def check_pack_name(name):
    """Check a new pack's name; return ``(package, distribution)`` derived from it.

    Args:
        name: the pack's name: its entry-point name, its ops' prefix and its package's name.

    Returns:
        ``(package, distribution)``, e.g. ``("my_ops", "opsdk-my-ops")``.

    Raises:
        InvalidNameError: not an identifier, a keyword, reserved, a standard-library module, or
            a module that is already importable (the pack would shadow it or be shadowed).

    Example::

        check_pack_name("my_ops")       # ('my_ops', 'opsdk-my-ops')
    """
    _check_identifier(name, "pack name")
    if name in _RESERVED_PACKS or name.lower() in _RESERVED_PACKS:
        raise InvalidNameError(f"pack name {name!r} is reserved; expected: a name of your own, "
                               f"e.g. '{name}_ops'; got: {name!r}")
    if name in sys.stdlib_module_names:
        raise InvalidNameError(f"pack name {name!r} is a standard-library module, which the pack's "
                               f"package would shadow; expected: another name, e.g. '{name}_ops'; "
                               f"got: {name!r}")
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, OSError):  # a broken module of that name still takes the name
        spec = None
    # a bare directory of that name (a namespace package, e.g. the pack's own folder) is no module
    if spec is not None and spec.origin is not None:
        where = spec.origin
        raise InvalidNameError(f"pack name {name!r} is already an importable module ({where}); "
                               f"expected: a name no installed module uses, e.g. '{name}_ops'; "
                               f"got: {name!r}")
    return name, "opsdk-" + name.replace("_", "-").lower()


def check_op_name(name, pack, existing=(), force=False):
    """Check a new op's name against Python's rules and the ops ``pack`` already has.

    Args:
        name: the op's name (its module's name, and the second half of ``pack.op``).
        pack: the pack's name, for messages.
        existing: names of the pack's ops.
        force: accept an existing op's name (its files are then regenerated).

    Raises:
        InvalidNameError: naming what is wrong, with an example of a name that works.

    Example::

        check_op_name("swish", "mypack", existing=["gelu"])
    """
    _check_identifier(name, "op name")
    if name in _RESERVED_OPS:
        raise InvalidNameError(f"op name {name!r} is reserved: ops/__init__.py of every pack "
                               f"defines it; expected: another name, e.g. '{name.lower()}_op'; "
                               f"got: {name!r}")
    if name in existing and not force:
        raise InvalidNameError(f"op {name!r} is already an op of pack '{pack}'; expected: a new "
                               f"name, or --force to regenerate it (its files are overwritten); "
                               f"got: {name!r}")


def check_backends(backends):
    """The backends to generate, in the order python, c, cuda; python is always one of them.

    The python kernel is the reference every other backend is verified against, so it is
    generated whatever was asked.

    Raises:
        InvalidNameError: an unknown backend.

    Example::

        check_backends(["cuda", "c"])       # ('python', 'c', 'cuda')
    """
    unknown = [b for b in backends if b not in BACKENDS]
    if unknown:
        raise InvalidNameError(f"unknown backend {unknown[0]!r}; expected: one of "
                               f"{', '.join(BACKENDS)}; got: {unknown[0]!r}")
    chosen = {"python", *backends}
    return tuple(b for b in BACKENDS if b in chosen)


def class_name(op):
    """The Function class name for an op: 'fused_swish' -> 'FusedSwish', 'kernel' -> 'KernelOp'."""
    name = "".join(part[:1].upper() + part[1:] for part in op.split("_") if part)
    if not name.isidentifier():
        name = "Op" + name
    # the generated module imports these names; a class of the same name would hide them
    return name + "Op" if name in _IMPORTED_CLASSES else name

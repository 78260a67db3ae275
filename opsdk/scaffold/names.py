"""Name checks for packs and ops, and the names derived from them (package, distribution, class).

A refused name is answered with a name that works: the suggestion is put through the same
checks before it is offered, so it is always accepted.
"""
import importlib.util
import keyword
import re
import sys

from ..errors import InvalidNameError

BACKENDS = ("python", "c", "cuda")

# the built-in pack, and names a pack's top-level package must not shadow in tests
_RESERVED_PACKS = {"opsdk", "test", "tests"}
_IDENTIFIER = "a Python identifier (letters, digits and '_', not starting with a digit) that is not a keyword"
# longer names make file names (".test_<op>.py.opsdk-<pid>.new", staging dirs) some systems refuse
MAX_NAME = 64
# file names Windows refuses whatever the extension: a pack or op called so cannot be checked out there
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                     *(f"lpt{i}" for i in range(1, 10))}
# PEP 508's names: what `pip install` and the distribution's metadata accept
DISTRIBUTION = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
# a version as PEP 440 writes it (and nothing that could end a string it is written into)
VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+!_-]{0,63}$")


class _Problem(Exception):
    """What is wrong with a name: ``why`` follows the name, ``expected`` says what would do."""

    def __init__(self, why, expected=_IDENTIFIER, shown=None, got=None):
        super().__init__(why)
        self.why, self.expected, self.shown, self.got = why, expected, shown, got


def _ascii(name):
    """``name`` in ASCII letters, digits and single '_' (é -> e, '-' -> '_'), without outer '_'."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    plain = re.sub(r"[^A-Za-z0-9]+", "_", plain).strip("_")
    return plain[:MAX_NAME - 8].rstrip("_")


def _identifier_problems(name, what):
    """Raise _Problem unless ``name`` is a portable identifier opsdk accepts for a pack or an op."""
    if not isinstance(name, str):
        raise _Problem("is not a valid name")
    if len(name) > MAX_NAME:
        raise _Problem(f"is too long: {len(name)} characters", f"at most {MAX_NAME}",
                       shown=f"'{name[:20]}...'", got=str(len(name)))
    if not name.isascii():
        if name.isidentifier():
            others = "".join(sorted({c for c in name if not c.isascii()}))
            raise _Problem(f"is not ASCII ({others!r})", "ASCII letters, digits and '_' (Python package "
                                                         "and distribution names must be ASCII)")
        raise _Problem("is not a valid name")
    if not name.isidentifier():
        raise _Problem("is not a valid name")
    if name.startswith("_"):
        raise _Problem("starts with '_', which opsdk keeps for private names")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise _Problem("is a Python keyword")
    if name.lower() in _WINDOWS_RESERVED:
        raise _Problem(f"is a reserved file name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9), so "
                       f"the {what.split()[0]} could not be used there", "another name")


def _refuse(name, what, problem, accepts, suffix):
    """The InvalidNameError for ``problem``, with a suggestion ``accepts`` takes."""
    suggestion = suggest(name, accepts, suffix)
    example = f", e.g. '{suggestion}'" if suggestion else ""
    shown = problem.shown or repr(name)
    got = problem.got or repr(name)
    return InvalidNameError(f"{what} {shown} {problem.why}; expected: {problem.expected}{example}; got: {got}")


def suggest(name, accepts, suffix="op"):
    """A name made from ``name`` that ``accepts(candidate)`` takes (a bool), or None.

    Tried in order: its ASCII spelling, then with ``_<suffix>`` after it or ``my_`` before it,
    then ``my_<suffix>``, ``my_<suffix>2``, ...

    Example::

        suggest("my-ops", lambda n: n.isidentifier())      # 'my_ops'
    """
    base = _ascii(name) if isinstance(name, str) else ""
    stems = [base] if base and not base[0].isdigit() else []
    candidates = [*stems, *(f"{stem}_{suffix}" for stem in stems), *(f"my_{b}" for b in [base] if b),
                  f"my_{suffix}", *(f"my_{suffix}{i}" for i in range(2, 50))]
    for candidate in candidates:
        if candidate != name and accepts(candidate):
            return candidate
    return None


def _pack_problems(name, packs):
    """Raise _Problem unless ``name`` can be a new pack's name; ``packs`` as _installed_packs()."""
    _identifier_problems(name, "pack name")
    if name.lower() in _RESERVED_PACKS:
        raise _Problem("is reserved", "a name of your own")
    if name in sys.stdlib_module_names:
        raise _Problem("is a standard-library module, which the pack's package would shadow", "another name")
    taken = packs.get(name) or _installed_distribution(_distribution(name))
    if taken:
        raise _Problem(f"is taken by {taken}: `pip install` of the new pack would replace it, or the "
                       f"two would clash", "a name no installed pack uses")
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, OSError):  # a broken module of that name still takes the name
        spec = None
    # a bare directory of that name (a namespace package, e.g. the pack's own folder) is no module
    if spec is not None and spec.origin is not None:
        raise _Problem(f"is already an importable module ({spec.origin})", "a name no installed module uses")


def _distribution(name):
    return "opsdk-" + name.replace("_", "-").lower()


def _installed_packs():
    """{pack name: what it is} of every installed opsdk pack (entry points of group ``opsdk``)."""
    from importlib import metadata

    packs = {}
    for entry in metadata.entry_points(group="opsdk"):
        dist = getattr(entry, "dist", None)
        owner = f" of {dist.metadata['Name']} {dist.version}" if dist is not None else ""
        packs.setdefault(entry.name, f"the installed pack '{entry.name}' (entry point "
                                     f"'{entry.name} = {entry.value}'{owner})")
    return packs


def _installed_distribution(distribution):
    """'the installed distribution NAME VERSION', or None."""
    from importlib import metadata

    try:
        dist = metadata.distribution(distribution)
    except (metadata.PackageNotFoundError, ValueError):
        return None
    return f"the installed distribution {dist.metadata['Name']} {dist.version}"


def check_pack_name(name):
    """Check a new pack's name; return ``(package, distribution)`` derived from it.

    Args:
        name: the pack's name: its entry-point name, its ops' prefix and its package's name.

    Returns:
        ``(package, distribution)``, e.g. ``("my_ops", "opsdk-my-ops")``.

    Raises:
        InvalidNameError: not an identifier, a keyword, reserved, a standard-library module, a
            module that is already importable (the pack would shadow it or be shadowed), or the
            name or distribution of an installed pack (its `pip install` would replace that one).

    Example::

        check_pack_name("my_ops")       # ('my_ops', 'opsdk-my-ops')
    """
    packs = _installed_packs()
    try:
        _pack_problems(name, packs)
    except _Problem as problem:
        raise _refuse(name, "pack name", problem, lambda n: _accepted(lambda c: _pack_problems(c, packs), n),
                      "ops") from None
    return name, _distribution(name)


def _accepted(problems, candidate):
    try:
        problems(candidate)
    except _Problem:
        return False
    return True


def check_identifier(name, what):
    """Raise InvalidNameError unless ``name`` is a portable identifier (not a keyword, not private):
    what a pack's or an op's name must be wherever it comes from (the answers file too)."""
    try:
        _identifier_problems(name, what)
    except _Problem as problem:
        raise _refuse(name, what, problem, lambda n: _accepted(lambda c: _identifier_problems(c, what), n),
                      "ops" if what.startswith("pack") else "op") from None


def check_op_name(name, pack, existing=(), force=False):
    """Check a new op's name against Python's rules, the templates and the ops ``pack`` already has.

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
    from .reserved import reserved_because

    def problems(candidate, new=False):
        _identifier_problems(candidate, "op name")
        why = reserved_because(candidate)
        if why is not None:
            raise _Problem(f"is reserved: {why}", "another name")
        if new and candidate in existing:
            raise _Problem("is taken")

    try:
        problems(name)
    except _Problem as problem:
        raise _refuse(name, "op name", problem, lambda n: _accepted(lambda c: problems(c, True), n), "op") \
            from None
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
    """The Function class name for an op: 'fused_swish' -> 'FusedSwish' (check_op_name refuses an
    op whose class name the generated module binds otherwise, such as 'OP')."""
    name = "".join(part[:1].upper() + part[1:] for part in op.split("_") if part)
    return name if name.isidentifier() else "Op" + name

"""``op_checks(...)``: the one line a pack's test module writes to get every check as a test."""
from dataclasses import dataclass


@dataclass(frozen=True)
class OpChecks:
    """Which ops, backends, dtypes and checks the pytest plugin turns into tests."""

    ops: tuple = ()
    packs: tuple = ()
    backends: tuple = ()
    dtypes: tuple = ()
    checks: tuple = ()
    mode: str = None
    seed: int = None

    # the plugin recognises declarations by this marker, without importing opsdk.check
    __opsdk_op_checks__ = True


def _names(value):
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def op_checks(*ops, pack=None, backend=None, dtype=None, check=None, mode=None, seed=None):
    """Declare, in a test module, the ops whose checks become tests (collected by the pytest plugin).

    Args:
        *ops: op names (``pack.op`` or unambiguous short names), or ops themselves (those of
            ``opsdk.foreign_op``, written in torch, JAX or Paddle); none means every op of
            ``pack`` (or of every loaded pack when ``pack`` is None too).
        pack: a pack name or a list of them.
        backend: limit to a backend or a list of them (``python``, ``c``, ``cuda``).
        dtype: limit to a dtype or a list of them.
        check: limit to a check name or a list of them (see ``opsdk check --help``).
        mode: ``"full"`` (default: every check on every derived sample, as ``opsdk check``) or
            ``"fast"`` (a cheap subset; a failure is re-run in full mode); the command line
            options ``--opsdk-fast`` / ``--opsdk-full`` override every declaration.
        seed: the samples' seed (default 0, or ``--opsdk-seed``).

    Returns:
        OpChecks: assign it to a module-level name (any name) so pytest collects it.

    Example::

        # tests/test_checks.py of the pack "mypack"
        import opsdk.testing
        test_mypack = opsdk.testing.op_checks(pack="mypack")
        # pytest -q  ->  tests/test_checks.py::mypack.swish[python-float64-gradcheck] PASSED ...
    """
    if mode not in (None, "fast", "full"):
        raise ValueError(f"op_checks: mode expected: 'fast' or 'full'; got: {mode!r}")
    return OpChecks(tuple(ops), _names(pack), _names(backend), _names(dtype), _names(check),
                    mode, seed)

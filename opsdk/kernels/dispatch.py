"""Forcing a backend: the ``use_backend`` context manager and the ``OPSDK_BACKEND`` variable."""

import os
from contextlib import contextmanager
from contextvars import ContextVar

from opsdk.env import BACKENDS
from opsdk.errors import BackendUnavailableError

# what runs first for arrays on each device, when nothing is forced
PREFERENCE = {"cpu": ("c", "python"), "gpu": ("cuda", "python")}
_NOT_FORCED = ("", "auto")

_forced = ContextVar("opsdk_forced_backend", default=None)
_forced_get = _forced.get

# os.environ.get costs about 0.7 us (it encodes the key and decodes the value); a dispatch
# budget of 2 us cannot afford that, so read the dict os.environ keeps up to date instead
_env_data = getattr(os.environ, "_data", None)
_env_key = os.environ.encodekey("OPSDK_BACKEND") if hasattr(os.environ, "encodekey") else None
if _env_data is None or _env_key is None:  # pragma: no cover - other os.environ implementations
    _env_data, _env_key = os.environ, "OPSDK_BACKEND"
_env_get = _env_data.get
_env_cache = {}  # raw env value -> validated backend


def _env_backend(raw):
    """The backend a raw OPSDK_BACKEND value forces (validated once per value), or None."""
    try:
        return _env_cache[raw]
    except KeyError:
        value = raw.decode() if isinstance(raw, bytes) else raw
        _env_cache[raw] = backend = _validate(value.strip().lower(), "OPSDK_BACKEND")
        return backend


def _validate(name, where):
    """name if it is a backend, None for ''/'auto'; anything else is an error."""
    if name is None or name in _NOT_FORCED:
        return None
    if name not in BACKENDS:
        # a bad environment variable breaks every kernel call of the process: say how to undo it
        fix = "\n  fix: unset OPSDK_BACKEND, or set it to one of those" if where == "OPSDK_BACKEND" else ""
        raise BackendUnavailableError(
            f"{where}: unknown backend\n  expected: one of {', '.join(BACKENDS)} (or 'auto')\n  got: {name!r}{fix}"
        )
    return name


def forced_backend():
    """The forced backend (context manager first, then OPSDK_BACKEND), or None."""
    forced = _forced_get()
    if forced is None:
        raw = _env_get(_env_key)
        return None if raw is None else _env_backend(raw)
    return forced or None


def current_backend():
    """The backend forced for this thread/task, or None when dispatch picks one per call.

    Returns:
        ``"python"``, ``"c"``, ``"cuda"`` or ``None``.

    Example:
        >>> with use_backend("python"):
        ...     current_backend()
        'python'
    """
    return forced_backend()


@contextmanager
def use_backend(name):
    """Force every kernel call in this thread (or asyncio task) to one backend.

    A kernel that cannot run the forced backend raises ``BackendUnavailableError``.
    ``use_backend(None)`` (or ``"auto"``) lifts an outer force, ``OPSDK_BACKEND`` included.

    Args:
        name: ``"python"``, ``"c"``, ``"cuda"``, or ``None``/``"auto"``.

    Example:
        >>> with use_backend("python"):
        ...     y = scale(x, alpha=2.0)  # doctest: +SKIP
    """
    backend = _validate(name, "use_backend")
    # "" stands for "explicitly not forced", so an outer OPSDK_BACKEND is lifted too
    token = _forced.set(backend if backend is not None else "")
    try:
        yield backend
    finally:
        _forced.reset(token)

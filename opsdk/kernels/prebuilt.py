"""Kernels shipped compiled inside a pack's wheel, and the checks before one is loaded.

A pack's wheel build (``opsdk.prebuild``) compiles each C source of the pack into a folder
beside the Python module that created the source::

    <package>/_opsdk_prebuilt/<prebuilt key>/_opsdk_<key>.abi3.so
    <package>/_opsdk_prebuilt/<prebuilt key>/MANIFEST   so, size, digest, key, source, cffi, compiler

The key (``keys.prebuilt_key``) hashes the exact sources, headers and flags at build time. At
run time the loader hashes the installed sources the same way and loads the build only when
its folder carries that key, its MANIFEST records it, and its bytes match the MANIFEST; an
edited source (an editable install) finds no build under its new key and is compiled into the
cache as before, never run stale.

It is loaded from the installed package, never copied into the cache. That is safe only where
nobody else can change the file between the check and the load: the file, its folders and every
folder above them must be yours or root's and writable by nobody else (a world-writable folder
with the sticky bit, /tmp, is fine: others cannot rename what is in it). Anything else is
refused, with the reason, and the kernel is compiled into the cache instead.

CUDA sources are shipped the same way, as PTX and cubins (``prebuilt_cuda``); ``find`` holds the
checks both share.
"""
import os
import stat
from importlib.machinery import EXTENSION_SUFFIXES
from typing import NamedTuple

from opsdk.errors import CacheUntrustedError
from opsdk.kernels import trust

FOLDER = "_opsdk_prebuilt"
_failed = {}  # entry -> why it did not load, per process


class Lookup(NamedTuple):
    """What the installed package holds for one C source.

    ``kind``: ``"prebuilt"`` (``build`` is checked and loadable), ``"none"`` (the package ships no
    build), ``"stale"`` (it ships one made from other sources), ``"refused"`` (one that is not
    trusted or not intact); ``why`` says so in words.
    """

    kind: str
    why: str
    entry: str = ""
    build: object = None


def module_name(key):
    """The extension's module name (its PyInit symbol) for a prebuilt key."""
    return f"_opsdk_{key}"


def extension_name(key, abi):
    """The file name of a prebuilt extension: ``.abi3.so`` where the stable ABI is used."""
    suffix = ".abi3.so" if abi == "abi3" and ".abi3.so" in EXTENSION_SUFFIXES else EXTENSION_SUFFIXES[0]
    return module_name(key) + suffix


def source_label(source):
    """How a MANIFEST names its source: the path from the creating module's folder, or where
    inline code was written."""
    if source.path is not None:
        return os.path.relpath(source.path, source.origin_dir).replace(os.sep, "/")
    file, _, line = source.origin.rpartition(":")
    return f"<inline in {os.path.basename(file)}:{line}>"


def folder_of(source):
    """Where the package holds the prebuilt builds of source's module."""
    return os.path.join(source.origin_dir, FOLDER)


def chain_distrust(path):
    """Why path or a folder above it could be changed by another user, or None.

    Each must be yours or root's and not writable by group or others, except a folder with the
    sticky bit (others cannot rename or remove what they do not own there).
    """
    current = os.path.realpath(path)
    while True:
        try:
            st = os.lstat(current)
        except OSError as exc:
            return f"{current} cannot be examined ({exc.strerror})"
        sticky = stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX
        why = trust.distrust(st, current)
        if why and not (sticky and "writable by" in why):
            return why
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def manifest(entry):
    """The MANIFEST's fields of an entry (read through trust), or {}."""
    try:
        text = trust.read_trusted(os.path.join(entry, "MANIFEST")).decode("utf-8")
        return dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
    except (OSError, UnicodeDecodeError, CacheUntrustedError):
        return {}


def lookup(source, code):
    """The ``Lookup`` of C source (its text ``code``) in the installed package."""
    from opsdk.kernels.keys import prebuilt_key

    return find(source, prebuilt_key(source, code), "c", _read_c)


def _read_c(entry, fields):
    from opsdk.kernels.entries import read_entry

    return read_entry(entry)


def find(source, key, kind, read, missing=None):
    """The ``Lookup`` of the build under ``key`` beside source's module, checked as every prebuilt
    build is (the folder chain, the MANIFEST's key, what failed to load before).

    Args:
        source: the CSource or CudaSource.
        key: the key the installed sources give (``keys.prebuilt_key`` / ``prebuilt_cuda_key``).
        kind: what the MANIFEST's ``kind`` field says (``"c"`` where it has none).
        read: ``read(entry, fields)`` -> the checked build, None when it does not match its
            MANIFEST, or a ``Lookup`` to return as it is; may raise CacheUntrustedError.
        missing: why there is no build, in words (default: the C wording).
    """
    folder = folder_of(source)
    label = source_label(source)
    if not os.path.isdir(folder):
        return Lookup("none", missing or f"the package ships no prebuilt build of {label} (installed "
                                         f"from source, editable, or built with OPSDK_PREBUILD=0)")
    entry = os.path.join(folder, key)
    if not os.path.lexists(entry):
        if any(_is_build_of(manifest(os.path.join(folder, name)), label, kind) for name in _names(folder)):
            return Lookup("stale", f"the wheel's build of {label} was made from other sources "
                                   f"(edited since it was built): compiled from the sources instead")
        return Lookup("none", missing or f"the package ships no prebuilt build of {label} for this platform")
    why = chain_distrust(entry)
    if why:
        return Lookup("refused", f"not loaded from {entry}: {why}", entry)
    fields = manifest(entry)
    try:
        build = read(entry, fields)
    except CacheUntrustedError as exc:
        return Lookup("refused", f"not loaded from {entry}: {exc}", entry)
    if isinstance(build, Lookup):
        return build
    if build is None or fields.get("key") != key:
        return Lookup("refused", f"not loaded from {entry}: it does not match its MANIFEST "
                                 f"(altered or damaged since it was installed)", entry)
    if entry in _failed:
        return Lookup("refused", f"{entry} did not load: {_failed[entry]}", entry)
    return Lookup("prebuilt", f"prebuilt in the package: {entry}", entry, build)


def _is_build_of(fields, label, kind):
    return fields.get("source") == label and fields.get("kind", "c") == kind


def failed(entry, error):
    """Remember that the build in entry did not load (``lookup`` then refuses it, saying why)."""
    _failed[entry] = (str(error).splitlines() or [type(error).__name__])[0]


def _names(folder):
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def load(found):
    """(lib, ffi) of a ``Lookup`` of kind ``"prebuilt"``, loaded from the package itself.

    Raises:
        ImportError, OSError: it does not load (remembered: ``lookup`` then says why).
    """
    from opsdk.kernels.loader import load_extension

    key = os.path.basename(found.entry)
    try:
        return load_extension(module_name(key), os.path.join(os.path.realpath(found.entry), found.build.name))
    except (ImportError, OSError) as exc:
        failed(found.entry, exc)
        raise

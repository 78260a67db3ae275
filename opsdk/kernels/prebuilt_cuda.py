"""CUDA kernels shipped compiled inside a pack's wheel: PTX and cubins made by nvcc, and which one
a GPU loads.

A pack's wheel build (``opsdk.prebuild.compile_cuda``) compiles each CUDA source of the pack into
the folder that holds its C builds (``prebuilt``)::

    <package>/_opsdk_prebuilt/<key>/_opsdk_<key>.sm_90.cubin      a cubin per architecture built
    <package>/_opsdk_prebuilt/<key>/_opsdk_<key>.compute_75.ptx   PTX for the lowest of them
    <package>/_opsdk_prebuilt/<key>/MANIFEST   kind, key, source, kernels, nvcc, and a line per
                                               file: <arch> <file> <size> <digest>

The key (``keys.prebuilt_cuda_key``) hashes what CuPy would compile at run time: the code, its
headers, its options, the kernel names. A GPU of compute capability X.Y loads the cubin
``sm_XZ`` with the highest Z <= Y (a cubin runs on the later minor versions of its major one),
else the PTX when its ``compute_NN`` is at most XY (the driver compiles it for the GPU), else
nothing, and CuPy compiles the source as before. Before a load, the checks are the C builds'
(``prebuilt.find``: the folder chain, the key), and the chosen file's bytes must match its line.
"""
import os
import re
from typing import NamedTuple

from opsdk.env import CUDA_ARCHS
from opsdk.errors import CacheUntrustedError
from opsdk.kernels import prebuilt, trust
from opsdk.kernels.digest import digest_bytes

KIND = "cuda"
# what a wheel is built for when neither OPSDK_CUDA_ARCHS nor the pack says (env.CUDA_ARCHS)
DEFAULT_ARCHS = CUDA_ARCHS


class CudaBuild(NamedTuple):
    """A checked CUDA build: its files by arch label (``sm_90``, ``compute_75``), the one chosen for
    this GPU (None where no GPU was asked about) and the kernels they hold."""

    entry: str
    files: dict
    chosen: object
    names: tuple

    @property
    def path(self):
        """The chosen file, in the installed package."""
        return os.path.join(os.path.realpath(self.entry), self.files[self.chosen])

    @property
    def format(self):
        """``"cubin"`` or ``"ptx"``: what the chosen file is."""
        return file_format(self.chosen)


def arch_labels(archs):
    """What a build of ``archs`` holds: a cubin per arch, then the PTX of the lowest."""
    return [f"sm_{a}" for a in sorted(archs)] + [f"compute_{min(archs)}"]


def file_format(label):
    return "cubin" if label.startswith("sm_") else "ptx"


def file_name(key, label):
    """The file of one target of a build: ``_opsdk_<key>.sm_90.cubin``, ``_opsdk_<key>.compute_75.ptx``."""
    return f"{prebuilt.module_name(key)}.{label}.{file_format(label)}"


def targets(fields):
    """{arch label: (file, size, digest)} of a MANIFEST's fields; None if a line is malformed."""
    found = {}
    for label, value in fields.items():
        if re.fullmatch(r"(?:sm|compute)_\d{2,3}", label):
            parts = value.split(" ")
            if len(parts) != 3 or not parts[1].isdigit() or parts[0].startswith(".") or "/" in parts[0] \
                    or os.sep in parts[0]:
                return None
            found[label] = (parts[0], int(parts[1]), parts[2])
    return found


def choose(labels, capability):
    """The label a GPU of ``capability`` (``90`` for 9.0) loads among labels, or None.

    Example:
        >>> choose(["sm_80", "sm_90", "compute_75"], 86), choose(["sm_80", "compute_75"], 90)
        ('sm_80', 'compute_75')
    """
    major, minor = divmod(capability, 10)
    cubins = [int(label[3:]) for label in labels if label.startswith("sm_")]
    fits = [a for a in cubins if a // 10 == major and a % 10 <= minor]
    if fits:
        return f"sm_{max(fits)}"
    ptx = [int(label[8:]) for label in labels if label.startswith("compute_") and int(label[8:]) <= capability]
    return f"compute_{max(ptx)}" if ptx else None


def lookup(source, code, capability):
    """The ``prebuilt.Lookup`` of a CudaSource (its text ``code``) in the installed package, for a
    GPU of ``capability`` (None: no GPU; every file is then checked and none chosen)."""
    from opsdk.kernels.keys import prebuilt_cuda_key

    label = prebuilt.source_label(source)

    def read(entry, fields):
        files = targets(fields)
        if not files:
            return None
        wanted = sorted(files) if capability is None else [choose(files, capability)]
        if wanted == [None]:
            major, minor = divmod(capability, 10)
            return prebuilt.Lookup("none", f"the wheel's build of {label} ({', '.join(files)}) has nothing "
                                           f"for this GPU (compute capability {major}.{minor})", entry)
        if not all(_intact(entry, *files[target]) for target in wanted):
            return None
        return CudaBuild(entry, {t: f[0] for t, f in files.items()}, None if capability is None else wanted[0],
                         tuple(fields.get("kernels", "").split()))

    return prebuilt.find(source, prebuilt_cuda_key(source, code), KIND, read, missing=(
        f"the package ships no PTX or cubin of {label} (installed from source, editable, or its "
        f"wheel built without nvcc, with OPSDK_CUDA_ARCHS=none or with OPSDK_PREBUILD=0)"))


def _intact(entry, name, size, digest):
    """Whether the file ``name`` of entry has the size and digest its MANIFEST line records.

    Raises:
        CacheUntrustedError: it is a link, or someone else could have written it.
    """
    try:
        fd = trust.open_dir(entry)
    except CacheUntrustedError:
        raise
    except OSError:
        return False
    try:
        data = trust.read_trusted(name, fd, size=size, label=os.path.join(entry, name))
    except CacheUntrustedError:
        raise
    except OSError:  # gone or unreadable
        return False
    finally:
        os.close(fd)
    return data is not None and digest_bytes(data) == digest

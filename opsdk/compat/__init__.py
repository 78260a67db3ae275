"""Paddle's own namespaces that opsdk answers for: ``opsdk.framework``, ``opsdk.static``,
``opsdk.jit``, ``opsdk.distributed`` and ``opsdk.incubate`` (they live here, in ``opsdk.compat``).

Each is reachable under its public name, also by ``import opsdk.framework`` and
``from opsdk.distributed.fleet.utils import recompute``: ``install_aliases`` puts a finder on
``sys.meta_path`` that hands out the module here for the public name (one module object under
both names), loading it only when first imported.
"""
import importlib
import importlib.abc
import importlib.util
import sys

# public name -> where it lives
ALIASES = {
    "opsdk.framework": "opsdk.compat.framework",
    "opsdk.static": "opsdk.compat.static",
    "opsdk.jit": "opsdk.compat.jit",
    "opsdk.distributed": "opsdk.compat.distributed",
    "opsdk.incubate": "opsdk.compat.incubate",
}


def real_name(fullname):
    """The module behind a public name (its submodules too), or None."""
    for public, real in ALIASES.items():
        if fullname == public or fullname.startswith(public + "."):
            return real + fullname[len(public):]
    return None


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        real = real_name(fullname)
        if real is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return None  # a placeholder; exec_module puts the real module in its place

    def exec_module(self, module):
        # the import system returns what sys.modules holds under the name after this call
        sys.modules[module.__name__] = importlib.import_module(real_name(module.__name__))


def install_aliases():
    """Put the finder first on sys.meta_path (once)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())

"""Importing a directory of test packs as a package of a chosen name (their modules then share
helpers through relative imports, under a name no installed package uses)."""
import contextlib
import importlib.util
import os
import sys


def import_directory(directory, name):
    """The package ``name`` made of ``directory`` (its ``__init__.py``), imported once per process."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(directory, "__init__.py"),
                                                      submodule_search_locations=[directory])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@contextlib.contextmanager
def registered_pack(package, name):
    """The imported package ``package`` registered as pack ``name`` for the block."""
    import opsdk.plugins
    from opsdk.verification.check import clear_caches

    opsdk.plugins.register_pack(package, name=name)
    clear_caches()
    try:
        yield name
    finally:
        opsdk.plugins.unregister_pack(name)
        clear_caches()

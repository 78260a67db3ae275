"""Load a compiled cffi extension from a cache path (no sys.path, no import of cffi itself)."""

from importlib.machinery import ExtensionFileLoader
from importlib.util import module_from_spec, spec_from_file_location


def load_extension(module_name, path):
    """(lib, ffi) of the cffi extension module at path."""
    loader = ExtensionFileLoader(module_name, path)
    spec = spec_from_file_location(module_name, path, loader=loader)
    module = module_from_spec(spec)
    loader.exec_module(module)
    return module.lib, module.ffi

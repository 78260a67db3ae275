"""Loading a compiled extension straight from its cache path."""

import os

from opsdk.kernels import build_c
from opsdk.kernels.loader import load_extension

from .sample import scale_source


def test_extension_loads_from_its_path_with_lib_and_ffi(cache):
    build_c(scale_source())
    c_dir = os.path.join(cache, "c")
    (entry,) = [e for e in os.listdir(c_dir) if os.path.isdir(os.path.join(c_dir, e))]
    (so_name,) = [n for n in os.listdir(os.path.join(c_dir, entry)) if n.endswith(".so")]
    lib, ffi = load_extension(so_name.split(".")[0], os.path.join(c_dir, entry, so_name))
    assert hasattr(lib, "scale_f64") and ffi.sizeof("double") == 8

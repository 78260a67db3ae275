"""The in-test pack is loaded for the interop tests, and unloaded after the last of them."""
import sys

import pytest

import opsdk

from . import pack


@pytest.fixture(scope="package", autouse=True)
def interop_pack():
    opsdk.plugins.register_pack(sys.modules[pack.__name__], name=pack.NAME)
    try:
        yield pack.NAME
    finally:
        opsdk.plugins.unregister_pack(pack.NAME)

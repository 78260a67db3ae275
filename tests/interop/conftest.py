"""The in-test pack is loaded for every interop test, and unloaded after the last."""
import sys

import pytest

import opsdk

from . import pack


@pytest.fixture(scope="session", autouse=True)
def interop_pack():
    opsdk.plugins.register_pack(sys.modules[pack.__name__], name=pack.NAME)
    try:
        yield pack.NAME
    finally:
        opsdk.plugins.unregister_pack(pack.NAME)

"""The LLTM C++ extension, compiled once per test session (slow tests only ask for it)."""
import shutil

import pytest


@pytest.fixture(scope="session")
def lltm_built(tmp_path_factory):
    """The extension, built in a temporary directory of its own; skipped, with the reason, where
    it cannot build."""
    pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
    from . import lltm_cpp

    if not (shutil.which("c++") or shutil.which("g++")):
        pytest.skip("no C++ compiler (c++ or g++) on PATH: the LLTM extension cannot build")
    try:
        return lltm_cpp.extension(str(tmp_path_factory.mktemp("lltm_build")))
    except lltm_cpp.NoToolchain as error:  # what this machine lacks: skipped, with the reason
        pytest.skip(str(error))
    except lltm_cpp.BuildError as error:  # our port does not compile: a failure, never a skip
        pytest.fail(str(error))

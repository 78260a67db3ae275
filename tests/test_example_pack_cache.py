"""The example pack's tests build their C kernels in a cache of their own, never the user's."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "plugins" / "opsdk-example"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the user cache follows XDG_CACHE_HOME on Linux")
def test_example_pack_tests_leave_the_user_cache_untouched(tmp_path):
    pytest.importorskip("opsdk_example", reason="the example pack is not installed")
    env = {k: v for k, v in os.environ.items() if k != "OPSDK_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                          cwd=EXAMPLE, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (tmp_path / "user-cache" / "opsdk").exists()

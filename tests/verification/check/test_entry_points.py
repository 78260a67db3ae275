"""The checkers `opsdk check` builds on, reached through their documented names (DESIGN §4)."""
import os
import subprocess
import sys

import pytest


def test_opsdk_autograd_gradcheck_is_the_function():
    code = ("import opsdk; x = opsdk.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False); "
            "print(opsdk.autograd.gradcheck(lambda t: (t * t).sum(), (x,)))")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo)
    assert out.stdout.strip() == "True", out.stderr[-500:]

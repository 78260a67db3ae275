"""Running an example script of examples/ in a fresh interpreter, as a user would."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_example(name):
    """The finished process of ``python examples/<name>.py``; asserts it exited 0."""
    r = subprocess.run([sys.executable, str(ROOT / "examples" / f"{name}.py")], cwd=ROOT,
                       capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r

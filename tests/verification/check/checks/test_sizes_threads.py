"""The sizes check runs compiled kernels with a second OpenMP thread even under OMP_NUM_THREADS=1."""
import os
import subprocess
import sys

from ..adversarial_helpers import REPO, TESTS

CHILD = '''
import sys
sys.path.insert(0, {tests!r})
from verification.check.adversarial_outsider.conftest import cli_failures
failed = cli_failures(0, "out.tanh_omp_chunk_c", "out.sigmoid_omp_offset_c", "--check", "sizes",
                      "--dtype", "float64")
print(sorted(op for op, rows in failed.items() if rows))
'''


def test_parallel_branch_bugs_show_under_omp_num_threads_1():
    # a fresh process: OpenMP reads OMP_NUM_THREADS once, when it loads
    env = dict(os.environ, OMP_NUM_THREADS="1",
               PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", CHILD.format(tests=TESTS)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.stdout.strip().splitlines()[-1] == (
        "['out.sigmoid_omp_offset_c', 'out.tanh_omp_chunk_c']"), out.stderr[-2000:]

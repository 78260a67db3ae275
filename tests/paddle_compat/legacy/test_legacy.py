"""Paddle's own dygraph unit tests, run with ``paddle`` resolving to opsdk.

The tests themselves are Paddle's and never live in this repository: fetch the files
(test/legacy_test/ in the PaddlePaddle repository) into a folder and point
OPSDK_PADDLE_LEGACY_TESTS at it. Without that folder, or without PaddlePaddle for the
baseline, the count is skipped; the alias is checked either way.
"""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run_legacy.py")
# of the 988 tests of the first two groups of run_legacy.FILES that pass on PaddlePaddle 3.3.1
# (static-mode tests aside), 969 passed under opsdk on 2026-12-03 (both groups, 47 files, each in a process of its own;
# docs/paddle.md says why the others fail). The goal of issue 26 is 95% (939); TARGET is the
# count measured, so that it can only go up.
TARGET, TOTAL = 969, 988
# the third group (its own FILES comment says how it was chosen): 104 of its 111 on 2026-12-03,
# after the alias stand-ins and fixes its first count (40 of 188) led to
TARGET3, TOTAL3 = 104, 111


def _run(code):
    return subprocess.run([sys.executable, "-c", code], cwd=HERE, capture_output=True,
                          text=True, check=True).stdout


def test_alias_resolves_paddle_to_opsdk_and_stands_in_for_base():
    out = _run("import paddle_alias; paddle_alias.install()\n"
               "import paddle, opsdk\n"
               "from paddle import base\n"
               "from paddle.nn.utils.clip_grad_norm_ import clip_grad_norm_\n"
               "from paddle.autograd.py_layer import PyLayer\n"
               "from paddle.tensor import random\n"
               "print(paddle.Tensor is opsdk.Tensor, PyLayer is opsdk.autograd.PyLayer,\n"
               "      clip_grad_norm_ is opsdk.nn.utils.clip_grad_norm_,\n"
               "      random.gaussian is opsdk.gaussian, base.in_dygraph_mode())")
    assert out.split() == ["True"] * 5


@pytest.mark.paddle
@pytest.mark.parametrize("groups,target,total", [(("1", "2"), TARGET, TOTAL),
                                                 (("3",), TARGET3, TOTAL3)])
def test_no_fewer_of_paddles_passing_legacy_tests_pass_under_opsdk_than_measured(
        groups, target, total):
    folder = os.environ.get("OPSDK_PADDLE_LEGACY_TESTS")
    if not folder or not os.path.isdir(folder):
        pytest.skip("set OPSDK_PADDLE_LEGACY_TESTS to a folder holding Paddle's legacy tests "
                    "(test_pylayer_op.py, ...) to count them")
    pytest.importorskip("paddle", reason="the baseline runs the tests under PaddlePaddle")
    out = subprocess.run([sys.executable, RUNNER, folder, "--against-real"]
                         + [a for g in groups for a in ("--group", g)],
                         capture_output=True, text=True, check=True).stdout
    line = out.strip().splitlines()[-1]
    ours, counted = int(line.split()[0]), int(line.split()[3])
    assert ours >= target, f"{line}\n{out}"
    assert counted == total, line

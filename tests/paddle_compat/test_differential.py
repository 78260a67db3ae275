"""The differential suite: every program runs under real PaddlePaddle and under opsdk (the same
source, ``paddle`` bound to each module); values, gradients, flags and raise-or-not agree, or
differ exactly where docs/paddle.md says they do."""
import pytest

import opsdk

from .harness import judge, observe, observe_in_child
from .programs import load_all

real_paddle = pytest.importorskip(
    "paddle", reason="the differential suite compares against PaddlePaddle 3.3.1 "
                     "(pip install paddlepaddle==3.3.1)")

pytestmark = pytest.mark.paddle

PROGRAMS = load_all()


# an isolated program imports Paddle again in a child process (5-20 s): full verification only
@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if PROGRAMS[n].isolate else [])
                                  for n in sorted(PROGRAMS)])
def test_program_agrees_with_paddle(name):
    prog = PROGRAMS[name]
    theirs = observe_in_child(prog) if prog.isolate else observe(prog, real_paddle)
    verdict, lines = judge(prog, theirs, observe(prog, opsdk))
    detail = "\n  ".join(lines)
    assert verdict in ("agree", "documented"), {
        "differ": f"{name} (item {prog.item}) differs from Paddle:\n  {detail}",
        "stray": f"{name}: differences beyond the documented ones:\n  {detail}",
        "stale": f"{name}: documented as differing ({detail}) but now agrees: update "
                 f"docs/paddle.md and the program",
    }[verdict]

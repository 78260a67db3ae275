"""The differential suite: every program runs under real PaddlePaddle and under opsdk (the same
source, ``paddle`` bound to each module); values, gradients, flags and raise-or-not agree, or
differ exactly where docs/paddle.md says they do."""
import pytest

import opsdk

from .harness import judge, observe
from .programs import load_all

real_paddle = pytest.importorskip(
    "paddle", reason="the differential suite compares against PaddlePaddle 3.3.1 "
                     "(pip install paddlepaddle==3.3.1)")

pytestmark = pytest.mark.paddle

PROGRAMS = load_all()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_agrees_with_paddle(name):
    prog = PROGRAMS[name]
    verdict, lines = judge(prog, observe(prog, real_paddle), observe(prog, opsdk))
    detail = "\n  ".join(lines)
    assert verdict in ("agree", "documented"), {
        "differ": f"{name} (item {prog.item}) differs from Paddle:\n  {detail}",
        "stray": f"{name}: differences beyond the documented ones:\n  {detail}",
        "stale": f"{name}: documented as differing ({detail}) but now agrees: update "
                 f"docs/paddle.md and the program",
    }[verdict]

"""Random programs against Paddle 3.3.1: DAGs of core ops with shared subexpressions and
several outputs, differentiated with respect to leaves and intermediates, with hooks on
intermediates, opsdk.grad twice (the graph is kept) and then backward()."""
import os
import sys

import numpy as np
import pytest
from hypothesis import given, strategies as st

pytest.importorskip("paddle", reason="the differential fuzz suite needs PaddlePaddle 3.3.1 "
                                     "(pip install paddlepaddle==3.3.1)")

from opsdk.errors import OpsdkError  # noqa: E402

from . import frameworks  # noqa: E402
from .conftest import fuzz_settings  # noqa: E402
from .harness import assert_close  # noqa: E402

pytestmark = pytest.mark.paddle

UNARY = {"tanh": lambda m, a: m.tanh(a), "exp": lambda m, a: m.exp(a * 0.3),
         "sigmoid": lambda m, a: m.nn.functional.sigmoid(a), "square": lambda m, a: a * a,
         "abs": lambda m, a: m.abs(a), "sum_row": lambda m, a: m.sum(a, axis=1, keepdim=True),
         "flip": lambda m, a: m.flip(a, [0]), "transpose_back": lambda m, a: m.transpose(
             m.transpose(a, [1, 0]) * 2.0, [1, 0]), "slice": lambda m, a: a[0:1] * a}
BINARY = {"add": lambda m, a, b: a + b, "mul": lambda m, a, b: a * b,
          "sub": lambda m, a, b: a - b, "max": lambda m, a, b: m.maximum(a, b),
          "div": lambda m, a, b: a / (m.abs(b) + 1.0),
          "matmul": lambda m, a, b: m.matmul(a, b, transpose_y=True) @ a * 0.1}


def program(data):
    """A list of steps; step k makes node k+2 from earlier nodes (0 and 1 are the leaves)."""
    steps = []
    for k in range(data.draw(st.integers(1, 6), label="steps")):
        n = k + 2
        if data.draw(st.booleans(), label="arity"):
            steps.append(("u", data.draw(st.sampled_from(sorted(UNARY)), label="u"),
                          data.draw(st.integers(0, n - 1), label="a")))
        else:
            steps.append(("b", data.draw(st.sampled_from(sorted(BINARY)), label="b"),
                          data.draw(st.integers(0, n - 1), label="a"),
                          data.draw(st.integers(0, n - 1), label="b")))
    n = len(steps) + 2
    outs = data.draw(st.lists(st.integers(2, n - 1), min_size=1, max_size=2, unique=True),
                     label="outs")
    # an output is never also an input: Paddle then answers None for everything upstream of
    # it (grad([c], [a, c]) with c = a + a gives a None), a wrong number opsdk does not copy
    wrt = data.draw(st.lists(st.sampled_from([i for i in range(n) if i not in outs]),
                             min_size=1, max_size=3, unique=True), label="wrt")
    # no_grad_vars are left out: Paddle 3.3.1 crashes (SIGSEGV) or raises "MetaTensor is not
    # initialized" on many such programs; tests/autograd covers opsdk's no_grad_vars
    blocked = []
    hooked = data.draw(st.lists(st.integers(2, n - 1), max_size=1), label="hooked")
    return steps, outs, wrt, blocked, hooked


def run(fw, prog, arrays):
    steps, outs, wrt, blocked, hooked = prog
    m = fw.module
    try:
        nodes = [fw.tensor(a, True) for a in arrays]
        for step in steps:
            if step[0] == "u":
                nodes.append(UNARY[step[1]](m, nodes[step[2]]))
            else:
                nodes.append(BINARY[step[1]](m, nodes[step[2]], nodes[step[3]]))
        for h in hooked:
            if h not in blocked:
                nodes[h].register_hook(lambda g: g * 2.0)
        ys = [nodes[i] for i in outs]
        ws = [fw.tensor(np.full(y.shape, 0.5 + i, dtype="float64"), False)
              for i, y in enumerate(ys)]
        ins = [nodes[i] for i in wrt]
        kw = {"no_grad_vars": [nodes[i] for i in blocked]} if blocked else {}
        first = m.grad(ys, ins, grad_outputs=ws, allow_unused=True, **kw)
        second = m.grad(ys, ins, grad_outputs=ws, allow_unused=True, **kw)  # graph kept
        m.autograd.backward(ys, ws)
        leaves = [None if n.grad is None else fw.array(n.grad) for n in nodes[:2]]
        return None, ([None if g is None else fw.array(g) for g in first],
                      [None if g is None else fw.array(g) for g in second], leaves,
                      [fw.array(y) for y in ys])
    except Exception as e:
        return e, None


@fuzz_settings(factor=5)
@given(data=st.data())
def test_random_programs_match_paddle(data):
    prog = program(data)
    seed = data.draw(st.integers(0, 2 ** 31), label="seed")
    rng = np.random.default_rng(seed)
    arrays = [np.round(rng.uniform(-2, 2, (2, 3)) * 4) / 4 for _ in range(2)]
    case = f"program={prog}"
    with np.errstate(all="ignore"):
        err, ours = run(frameworks.get("opsdk"), prog, arrays)
        if os.environ.get("OPSDK_FUZZ_TRACE"):  # the last line shown names a case that crashed
            print(case, file=sys.stderr, flush=True)
        terr, theirs = run(frameworks.get("paddle"), prog, arrays)
    if err is not None:
        assert isinstance(err, OpsdkError), f"{case}: internal error {err!r}"
        assert terr is not None, f"{case}: opsdk raised {err!r}; Paddle did not"
        return
    assert terr is None, f"{case}: Paddle raised {terr!r}; opsdk did not"
    for part, a_list, b_list in zip(("grad", "second grad", "leaf .grad", "values"), ours,
                                    theirs):
        for j, (a, b) in enumerate(zip(a_list, b_list)):
            assert_close(a, b, f"{case}: {part} {j}", "float64")

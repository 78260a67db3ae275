"""forward: the backend's outputs agree with the python kernel's (shape, dtype and values)."""
from ... import no_grad
from ..backends import REFERENCE
from ..compare import compare
from ..result import Outcome

NAME = "forward"
SUMMARY = "outputs agree with the python backend"


def applies(op, backend):
    """The python backend is the reference, so it is never compared with itself."""
    return backend != REFERENCE


def run(ctx):
    """Compare every output of the op on ``ctx.backend`` with the python backend's."""
    with no_grad():
        got = ctx.call(requires=()).outputs
        expected = ctx.call(requires=(), backend=REFERENCE).outputs
    if len(got) != len(expected):
        return Outcome.failed(f"{ctx.backend} returned {len(got)} outputs; expected: "
                              f"{len(expected)} (as python); got: {len(got)}")
    worst, problems = 0.0, []
    for k, (a, e) in enumerate(zip(got, expected)):
        if a.dtype != e.dtype:
            problems.append(f"output {k}: dtype differs; expected: {e.dtype} (python); got: {a.dtype}")
            continue
        if e.dtype.kind not in "fc":
            tol = (0.0, 0.0)  # indices, masks: exact
        else:
            tol = (ctx.atol, ctx.rtol)
        result = compare(a, e, *tol)
        worst = max(worst, result.worst)
        if not result.ok:
            problems.append(f"output {k}: {result.message}")
    if problems:
        return Outcome.failed(f"{ctx.name} forward on {ctx.backend} disagrees with python: "
                              + "; ".join(problems), worst)
    return Outcome.passed(worst)

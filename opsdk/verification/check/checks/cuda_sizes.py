"""cuda_sizes: every CUDA kernel of the op agrees with its python kernel at sizes 1 to past a grid.

The op's samples are small, and most CUDA bugs only show at other sizes: a missing bounds check
or a grid-stride loop that drops the tail, a kernel right for one block size only, a reduction
that goes wrong past one warp or one block. Each kernel call the op's forward, backward and
double backward make is replayed at sizes 1, 7, 255, 256, 257, 4097 and one element past a full
grid (16385 on the simulator: a second pass of every grid-stride loop), contiguous and strided
(strided at 7 and 257; ``opsdk.kernels.cudasim.differential.case_sizes``); it runs once per op and dtype, on the first sample.
Under the CUDA simulator a fault the GPU would hit is reported with its cause.
"""
from ..result import Outcome

NAME = "cuda_sizes"
SUMMARY = "cuda kernels agree with python at sizes 1 to past a full grid, strided too"


def applies(op, backend):
    return backend == "cuda" and any("cuda" in k.backends for k in op.kernels)


def run(ctx):
    from ....kernels.cudasim.differential import run_case
    from ..cuda_cases import cases

    if ctx.sample.label != "sample 0":
        return Outcome.not_applicable("sizes are checked once per op, with the first sample")
    failures = []
    for case in cases(ctx.op, dtypes=(ctx.dtype,), seed=ctx.seed):
        for size, why in run_case(case, seed=ctx.seed):
            failures.append(f"{case.label} at size {size}: {why}")
    if failures:
        shown = "\n".join(failures[:6]) + (f"\n... and {len(failures) - 6} more" if len(failures) > 6 else "")
        return Outcome.failed(f"{ctx.name}: {len(failures)} cuda kernel run(s) disagree with python or "
                              f"fail:\n{shown}")
    return Outcome.passed()

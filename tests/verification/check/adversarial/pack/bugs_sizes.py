"""Classes 3 and 8, the author's shapes only, and output elements never written (C kernels).

cube_first64_c    right for the first 64 elements only: later blocks read x from the start
cube_notail_c     forward unrolled by 4 without the tail loop (the 3x4 sample has no tail)
cube_bwd_notail_c backward unrolled by 4 without the tail loop
cube_parallel_c   above 65536 elements, the second chunk starts one element late
cube_parallel_big_c the same above its own PAR_MIN (100000), read from its source
cube_skip_last_c  the loop stops one element early
"""
from opsdk import TensorSpec

from ._common import binary_c, c_source, kernel_op, unary_c

SOURCE = c_source("csrc/bugs.c", [
    "void cube_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void cube_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);",
    "void cube64_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void cube4_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void cube4_bwd_{S}(const {T} *x, const {T} *dy, {T} *dx, int64_t n);",
    "void cubepar_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void cubelast_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
    "void cubebig_fwd_{S}(const {T} *x, {T} *y, int64_t n);",
])


def _cube(x):
    return (x * x * x).astype(x.dtype)


def _cube_grad(x, dy):
    return (3 * x * x * dy).astype(x.dtype)


def reference(x):
    return x * x * x


cube_bwd = binary_c("adv.cube_bwd", SOURCE, "cube_bwd", _cube_grad)
cube_fwd = unary_c("adv.cube_fwd", SOURCE, "cube_fwd", _cube)
first64 = unary_c("adv.cube_first64_fwd", SOURCE, "cube64_fwd", _cube)
notail = unary_c("adv.cube_notail_fwd", SOURCE, "cube4_fwd", _cube)
bwd_notail = binary_c("adv.cube_bwd_notail", SOURCE, "cube4_bwd", _cube_grad)
parallel = unary_c("adv.cube_parallel_fwd", SOURCE, "cubepar_fwd", _cube)
skip_last = unary_c("adv.cube_skip_last_fwd", SOURCE, "cubelast_fwd", _cube)
parallel_big = unary_c("adv.cube_parallel_big_fwd", SOURCE, "cubebig_fwd", _cube)

OPS = (
    ("cube_first64_c", first64, cube_bwd),
    ("cube_notail_c", notail, cube_bwd),
    ("cube_bwd_notail_c", cube_fwd, bwd_notail),
    ("cube_parallel_c", parallel, cube_bwd),
    ("cube_skip_last_c", skip_last, cube_bwd),
    ("cube_parallel_big_c", parallel_big, cube_bwd),
)
FUNCTIONS = {name: kernel_op("".join(p.title() for p in name.split("_")), f, b,
                             "x cubed (python and C kernels).") for name, f, b in OPS}


def register(register):
    """Register the shape and unwritten-output bugs."""
    spec = [TensorSpec(shape=(3, 4), domain=(-2.0, 2.0))]
    for name, fwd, bwd in OPS:
        register(FUNCTIONS[name], name=name, inputs=spec, kernels=(fwd, bwd), reference=reference)

"""opsdk/maths.h: the float32 functions within a few ulp of float64 everywhere, inf and nan as in C99.

Each function runs in a vectorized loop (as kernels call it) over points spread across the whole
float range, and is compared with NumPy in float64 rounded to float32.
"""

import numpy
import pytest

from opsdk.kernels import CSource, Kernel
from opsdk.kernels.cody_erf import erfc, erfcx
from opsdk.kernels.elementwise import C_FLAGS

FUNCTIONS = ("exp", "expm1", "log", "log1p", "tanh", "erfc", "erfcx", "sigmoid", "softplus", "tanh_softplus", "sech2_softplus")
_CODE = '#include "opsdk/elementwise.h"\n' + "".join(
    f"OPSDK_CLONES static void {f}_range(const float *restrict x, float *restrict y, int64_t lo, int64_t hi)\n"
    f"{{ OPSDK_SIMD for (int64_t i = lo; i < hi; i++) y[i] = opsdk_{f}_f32(x[i]); }}\n"
    f"void run_{f}_f32(const float *x, float *y, int64_t n) {{ OPSDK_PARALLEL(n, lo, hi, {f}_range(x, y, lo, hi)); }}\n"
    f"void run_{f}_f64(const double *x, double *y, int64_t n) {{ for (int64_t i = 0; i < n; i++) y[i] = opsdk_{f}_f64(x[i]); }}\n"
    for f in FUNCTIONS)
SOURCE = CSource(code=_CODE, openmp=True, extra_compile_args=C_FLAGS, libraries=("m",))
KERNELS = {f: Kernel(f"tests.maths.{f}").c(SOURCE, f"run_{f}") for f in FUNCTIONS}


def _logistic(u):
    e = numpy.exp(-numpy.abs(u))
    return numpy.where(u >= 0, 1 / (1 + e), e / (1 + e))


def _tanh_softplus(u):
    return numpy.tanh(numpy.logaddexp(0, u))


REFERENCE = {
    "exp": numpy.exp, "expm1": numpy.expm1, "log": numpy.log, "log1p": numpy.log1p, "tanh": numpy.tanh, "erfc": erfc, "erfcx": erfcx,
    "sigmoid": _logistic, "softplus": lambda u: numpy.logaddexp(0, u), "tanh_softplus": _tanh_softplus,
    # 1 - tanh(s)^2 = 4 / (e^s + e^-s)^2, with no cancellation
    "sech2_softplus": lambda u: 1 / numpy.cosh(numpy.logaddexp(0, u)) ** 2,
}
# points where the function is defined, across the float range (log and log1p: their domains)
_rng = numpy.random.default_rng(0)
_SPREAD = numpy.concatenate([_rng.uniform(-1, 1, 20000), _rng.uniform(-30, 30, 20000),
                             numpy.exp(_rng.uniform(-80, 85, 20000)), -numpy.exp(_rng.uniform(-80, 5, 20000)),
                             [1e-40, 1e-45, 88.7, 88.72, -87.4, -103.9, 1e-7, -1e-7]])
SPECIAL = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e30, -1e30, 200.0, -200.0], numpy.float32)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One private cache for the module: every test calls the same source, compiled once (a
    fresh cache per test compiled it 18 times, 2-8 s each)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPSDK_CACHE_DIR", str(tmp_path_factory.mktemp("maths-cache")))
        patch.delenv("OPSDK_BACKEND", raising=False)
        patch.delenv("CC", raising=False)
        yield


def _points(name):
    x = _SPREAD
    if name == "log":
        x = numpy.abs(x)
    if name == "log1p":
        x = numpy.abs(x) - numpy.where(numpy.abs(x) < 1, 1 - 1e-7, 0) * (x < 0)
    return x.astype(numpy.float32)


# sech2_softplus squares exp(-|u|) (its error doubles), erfc multiplies two exps by a fit (relative
# error under 4e-7), erfcx for x < 0 takes a difference; the others are within 3 ulp
ULP = {"sech2_softplus": 6, "erfc": 6, "erfcx": 6}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_float32_is_within_a_few_ulp_of_float64(cache, name):
    x = _points(name)
    got = KERNELS[name](x)
    with numpy.errstate(all="ignore"):
        want = REFERENCE[name](x.astype(numpy.float64))
        rounded = want.astype(numpy.float32)
    finite = numpy.isfinite(rounded) & (numpy.abs(rounded) >= numpy.finfo(numpy.float32).tiny)
    ulp = numpy.abs(got[finite].astype(numpy.float64) - want[finite]) / numpy.spacing(numpy.abs(rounded[finite]))
    assert ulp.max() <= ULP.get(name, 3), f"{name}: {ulp.max():.2f} ulp at x = {x[finite][ulp.argmax()]!r}"
    tiny = ~finite & numpy.isfinite(rounded)  # subnormal results: right to within the smallest normal
    assert numpy.all(numpy.abs(got[tiny] - rounded[tiny]) <= 2 * numpy.finfo(numpy.float32).smallest_subnormal)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_inf_nan_and_signed_zero_behave_as_in_c99(cache, name):
    got = KERNELS[name](SPECIAL)
    with numpy.errstate(all="ignore"):
        want = REFERENCE[name](SPECIAL.astype(numpy.float64)).astype(numpy.float32)
    with numpy.errstate(invalid="ignore"):
        close = numpy.abs(got - want) <= ULP.get(name, 3) * numpy.spacing(numpy.abs(want))
    same = (got == want) | (numpy.isnan(got) & numpy.isnan(want)) | (numpy.isfinite(want) & close)
    assert same.all(), f"{name}: at {SPECIAL[~same]} got {got[~same]}, expected {want[~same]}"
    assert numpy.signbit(got[SPECIAL == 0]).tolist() == numpy.signbit(want[SPECIAL == 0]).tolist()


@pytest.mark.parametrize("name", FUNCTIONS)
def test_float64_agrees_with_numpy(cache, name):
    x = _points(name).astype(numpy.float64)
    with numpy.errstate(all="ignore"):
        want = REFERENCE[name](x)
    numpy.testing.assert_allclose(KERNELS[name](x), want, rtol=1e-13, atol=1e-300)


def test_the_parallel_loop_covers_every_element_above_the_threshold(cache):
    x = numpy.linspace(-5, 5, 65536 * 3 + 17).astype(numpy.float32)
    numpy.testing.assert_allclose(KERNELS["sigmoid"](x), _logistic(x.astype(numpy.float64)), rtol=1e-6)


_EXP_NEG = CSource(code='#include "opsdk/elementwise.h"\n'
                   "OPSDK_CLONES static void exp_neg_range(const float *restrict x, float *restrict y, int64_t lo, int64_t hi)\n"
                   "{ OPSDK_SIMD for (int64_t i = lo; i < hi; i++) y[i] = opsdk_exp_neg_f32(x[i]); }\n"
                   "void run_exp_neg_f32(const float *x, float *y, int64_t n) { OPSDK_PARALLEL(n, lo, hi, exp_neg_range(x, y, lo, hi)); }\n",
                   openmp=True, extra_compile_args=C_FLAGS, libraries=("m",))
EXP_NEG = Kernel("tests.maths.exp_neg", dtypes=("float32",)).c(_EXP_NEG, "run_exp_neg")


def test_the_exp_of_a_non_positive_argument_is_within_an_ulp_of_float64(cache):
    """opsdk_exp_neg_f32, the exp that exp(-abs(u)) in a body calls (and sigmoid & co.): one
    scale for every result, subnormal ones rounded once; nan, -inf and -0 as exp's."""
    x = -numpy.abs(_SPREAD).astype(numpy.float32)
    got = EXP_NEG(x)
    want = numpy.exp(x.astype(numpy.float64))
    rounded = want.astype(numpy.float32)
    normal = rounded >= numpy.finfo(numpy.float32).tiny
    ulp = numpy.abs(got[normal] - want[normal]) / numpy.spacing(rounded[normal])
    assert ulp.max() <= 1.5, f"{ulp.max():.2f} ulp at x = {x[normal][ulp.argmax()]!r}"
    assert numpy.all(numpy.abs(got[~normal] - rounded[~normal]) <= numpy.finfo(numpy.float32).smallest_subnormal)
    special = numpy.array([-0.0, 0.0, -numpy.inf, numpy.nan, -103.9, -104.0, -200.0, -1e30], numpy.float32)
    got = EXP_NEG(special)
    assert got[:3].tolist() == [1.0, 1.0, 0.0] and numpy.isnan(got[3])
    assert got[4] == numpy.float32(numpy.exp(-103.9)) and got[5:].tolist() == [0.0, 0.0, 0.0]

"""The random draws and fills of opsdk/functional/random.py: shapes, dtypes, stop_gradient and
in-place version counts as Paddle 3.3.1's, supports, sample statistics against Paddle's own
samples (and the distributions' moments), seeded determinism within opsdk, the RNG state,
errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, LeafInplaceError, OpArgumentError, ShapeError
from helpers.frameworks import import_paddle

N = 20000

# (name, call(P) -> Tensor): each draws with P's generator
DRAWS = {
    "rand_like": lambda P: P.rand_like(P.zeros([3, 4], dtype="float64")),
    "rand_like_dtype": lambda P: P.rand_like(P.zeros([3]), dtype="float16"),
    "randn_like": lambda P: P.randn_like(P.zeros([2, 5])),
    "randint_like": lambda P: P.randint_like(P.zeros([3, 2]), 5),
    "randint_like_dtype": lambda P: P.randint_like(P.zeros([4], dtype="int64"), 2, 9,
                                                   dtype="int32"),
    "bernoulli": lambda P: P.bernoulli(P.full([3, 4], 0.3, dtype="float64")),
    "bernoulli_p": lambda P: P.bernoulli(P.full([6], 0.9), p=0.2),
    "multinomial": lambda P: P.multinomial(P.to_tensor([0.2, 0.0, 0.8]), 5, replacement=True),
    "multinomial_rows": lambda P: P.multinomial(P.to_tensor([[0.2, 0.3, 0.5], [1.0, 1.0, 0.0]]),
                                                2),
    "log_normal": lambda P: P.log_normal(0.0, 0.5, [2, 3]),
    "poisson": lambda P: P.poisson(P.full([5], 3.0, dtype="float64")),
    "binomial": lambda P: P.binomial(P.to_tensor([10, 5, 0]), P.to_tensor([0.5, 0.2, 0.7])),
    "binomial_broadcast": lambda P: P.binomial(P.to_tensor([10], dtype="int32"),
                                               P.to_tensor([0.5, 0.2], dtype="float64")),
    "standard_gamma": lambda P: P.standard_gamma(P.full([4], 2.0)),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", DRAWS)
def test_draws_have_paddles_shape_dtype_and_stop_gradient(case):
    paddle = import_paddle()
    got, want = DRAWS[case](opsdk), DRAWS[case](paddle)
    assert (list(got.shape), str(got.dtype), got.stop_gradient) == \
        (list(want.shape), str(want.dtype), want.stop_gradient)


@pytest.mark.parametrize("case", DRAWS)
def test_seeded_draws_repeat(case):
    opsdk.seed(123)
    a = DRAWS[case](opsdk).numpy()
    opsdk.seed(123)
    b = DRAWS[case](opsdk).numpy()
    np.testing.assert_array_equal(a, b)


# (method, args, Paddle's inplace_version steps)
FILLS = [("bernoulli_", (0.4,), 3), ("normal_", (1.0, 2.0), 1), ("log_normal_", (0.0, 0.5), 2),
         ("cauchy_", (1.0, 2.0), 6), ("geometric_", (0.3,), 3), ("exponential_", (2.0,), 0),
         ("random_", (2, 9), 1), ("uniform_", (), 1)]


@pytest.mark.paddle
@pytest.mark.parametrize("method, args, steps", FILLS)
def test_fills_count_paddles_writes(method, args, steps):
    paddle = import_paddle()
    for P in (opsdk, paddle):
        x = P.zeros([3, 4], dtype="float64")
        v = x.inplace_version
        assert getattr(x, method)(*args) is x
        assert x.inplace_version - v == steps, P.__name__
        assert str(x.dtype) == "paddle.float64"


@pytest.mark.parametrize("method, args, steps", FILLS)
def test_fills_refuse_a_leaf_that_needs_a_gradient(method, args, steps):
    x = opsdk.zeros([3])
    x.stop_gradient = False
    with pytest.raises(LeafInplaceError):
        getattr(x, method)(*args)


def test_fills_are_top_level_functions_too():
    for name in ("bernoulli_", "normal_", "log_normal_", "cauchy_", "geometric_"):
        x = opsdk.zeros([4])
        args = (0.5,) if name == "geometric_" else ()
        assert getattr(opsdk, name)(x, *args) is x


def _samples(P, name, seed=7):
    P.seed(seed)
    x = P.zeros([N], dtype="float64")
    fills = {"bernoulli_": (0.3,), "normal_": (1.0, 2.0), "log_normal_": (0.0, 0.5),
             "cauchy_": (1.0, 2.0), "geometric_": (0.3,), "exponential_": (2.0,),
             "random_": (2, 9), "uniform_": ()}
    if name in fills:
        return getattr(x, name)(*fills[name]).numpy()
    return {
        "bernoulli": lambda: P.bernoulli(P.full([N], 0.3, dtype="float64")),
        "poisson": lambda: P.poisson(P.full([N], 3.0, dtype="float64")),
        "binomial": lambda: P.binomial(P.full([N], 10, dtype="int64"),
                                       P.full([N], 0.3, dtype="float64")),
        "standard_gamma": lambda: P.standard_gamma(P.full([N], 2.0, dtype="float64")),
        "log_normal": lambda: P.log_normal(0.0, 0.5, [N]),
        "randn_like": lambda: P.randn_like(x),
        "rand_like": lambda: P.rand_like(x),
        "randint_like": lambda: P.randint_like(x, 2, 9),
        "multinomial": lambda: P.multinomial(P.to_tensor([0.2, 0.0, 0.5, 0.3]), N,
                                             replacement=True),
    }[name]().numpy()


STATS = ["bernoulli_", "normal_", "log_normal_", "cauchy_", "geometric_", "exponential_",
         "random_", "uniform_", "bernoulli", "poisson", "binomial", "standard_gamma",
         "log_normal", "randn_like", "rand_like", "randint_like", "multinomial"]


@pytest.mark.paddle
@pytest.mark.parametrize("name", STATS)
def test_sample_statistics_match_paddles(name):
    """The quartiles (robust to Cauchy's tails) of N draws agree with Paddle's, and the
    supports (smallest, largest value, integrality) are the same."""
    paddle = import_paddle()
    got, want = _samples(opsdk, name), _samples(paddle, name)
    q = [0.1, 0.25, 0.5, 0.75, 0.9]
    spread = np.subtract(*np.quantile(want, [0.9, 0.1])) or 1.0
    np.testing.assert_allclose(np.quantile(got, q), np.quantile(want, q),
                               atol=0.05 * spread + 1e-12)
    assert np.all(got == np.round(got)) == np.all(want == np.round(want))
    if np.all(want == np.round(want)):  # discrete: the values not rare in one occur in both
        for a, b in ((got, want), (want, got)):
            values, counts = np.unique(a, return_counts=True)
            assert set(values[counts >= N // 500]) <= set(np.unique(b))
    assert (got.min() >= 0) == (want.min() >= 0)


@pytest.mark.parametrize("name, mean, var", [
    ("normal_", 1.0, 4.0), ("exponential_", 0.5, 0.25), ("bernoulli", 0.3, 0.21),
    ("poisson", 3.0, 3.0), ("binomial", 3.0, 2.1), ("standard_gamma", 2.0, 2.0),
    ("log_normal", np.exp(0.125), (np.exp(0.25) - 1) * np.exp(0.25)), ("rand_like", 0.5, 1 / 12),
    ("randn_like", 0.0, 1.0), ("uniform_", 0.5, 1 / 12), ("random_", 5.0, 4.0),
])
def test_sample_moments_are_the_distributions(name, mean, var):
    s = _samples(opsdk, name)
    assert abs(s.mean() - mean) < 5 * np.sqrt(var / N)
    assert abs(s.var() / var - 1) < 0.06


def test_supports():
    s = _samples(opsdk, "multinomial")
    assert set(np.unique(s)) == {0, 2, 3}
    np.testing.assert_allclose(np.bincount(s, minlength=4) / N, [0.2, 0.0, 0.5, 0.3], atol=0.02)
    rows = opsdk.multinomial(opsdk.to_tensor([[1.0, 2, 3, 4, 0]] * 50), 4).numpy()
    assert all(len(set(r)) == 4 and 4 not in r for r in rows)
    assert set(np.unique(_samples(opsdk, "randint_like"))) == set(range(2, 9))
    assert set(np.unique(_samples(opsdk, "bernoulli_"))) == {0.0, 1.0}
    assert _samples(opsdk, "geometric_").min() > 0
    b = opsdk.zeros([8])
    b.bernoulli_(opsdk.to_tensor([0.0, 1.0] * 4))
    assert b.tolist() == [0.0, 1.0] * 4


def test_random_without_bounds_covers_the_dtypes_range():
    x = opsdk.zeros([2000], dtype="float32").random_()
    assert x.numpy().max() > 2 ** 20 and np.all(x.numpy() <= 2 ** 24)
    y = opsdk.zeros([4], dtype="int32").random_(3)
    assert set(y.tolist()) <= {0, 1, 2}


def test_rng_state_round_trip_and_generators():
    g = opsdk.manual_seed(11)
    assert g.initial_seed() == 11
    state = opsdk.get_rng_state()
    a = opsdk.rand([5]).numpy()
    opsdk.set_rng_state(state)
    np.testing.assert_array_equal(opsdk.rand([5]).numpy(), a)
    other = opsdk.Generator()
    other.manual_seed(11)
    opsdk.seed(11)
    assert other.random() == other.manual_seed(11).random()  # its own stream, re-seedable
    np.testing.assert_array_equal(opsdk.rand([5]).numpy(), a)  # the default one untouched


@pytest.mark.paddle
def test_poisson_gives_x_a_zero_gradient_as_paddle():
    paddle = import_paddle()
    for P in (opsdk, paddle):
        lam = P.to_tensor([1.0, 5.0], stop_gradient=False)
        out = P.poisson(lam)
        assert out.stop_gradient is False
        out.sum().backward()
        assert lam.grad.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("call, error", [
    (lambda: opsdk.multinomial(opsdk.to_tensor([-1.0, 2.0]), 1), OpArgumentError),
    (lambda: opsdk.multinomial(opsdk.zeros([2, 2, 2]), 1), ShapeError),
    (lambda: opsdk.multinomial(opsdk.to_tensor([0.1, 0.0, 0.9]), 3), OpArgumentError),
    (lambda: opsdk.bernoulli(opsdk.to_tensor([1, 0])), DTypeError),
    (lambda: opsdk.rand_like(opsdk.to_tensor([1, 2])), DTypeError),
    (lambda: opsdk.randint_like(opsdk.zeros([2]), 5, 5), OpArgumentError),
    (lambda: opsdk.zeros([2]).random_(5, 2), OpArgumentError),
    (lambda: opsdk.log_normal(), OpArgumentError),
    (lambda: opsdk.set_rng_state("no"), OpArgumentError),
])
def test_bad_arguments_are_clear_errors(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P: P.multinomial(P.to_tensor([-1.0, 2.0]), 1),
    lambda P: P.multinomial(P.zeros([2, 2, 2]), 1),
    lambda P: P.multinomial(P.to_tensor([0.1, 0.0, 0.9]), 3),
    lambda P: P.zeros([2]).random_(5, 2),
])
def test_paddle_refuses_the_same_with_a_value_error(call):
    paddle = import_paddle()
    for P in (paddle, opsdk):
        with pytest.raises(ValueError):
            call(P)

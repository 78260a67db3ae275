"""einsum: values (NumPy, Paddle, PyTorch) for products, traces, diagonals, sums, '...'
broadcasting, implicit output, repeated output labels; gradients to second order; errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, assert_same_as_torch
from helpers.gradients import assert_gradients
from helpers.samples import signed

CASES = {
    "matmul": ("ij,jk->ik", [(2, 3), (3, 4)]),
    "implicit": ("ij,jk", [(2, 3), (3, 4)]),
    "transpose": ("ba", [(2, 3)]),
    "trace": ("ii", [(3, 3)]),
    "diagonal": ("ii->i", [(3, 3)]),
    "sum": ("ij->", [(2, 3)]),
    "outer": ("i,j->ij", [(2,), (3,)]),
    "batched": ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    "ellipsis": ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]),
    "ellipsis_broadcast": ("...ij,...jk", [(2, 1, 2, 3), (3, 3, 4)]),
    "three": ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    "scalar": (",ij->ij", [(), (2, 3)]),
    "bilinear": ("i,ij,j->", [(2,), (2, 3), (3,)]),
    "repeated_in_term": ("iij->j", [(2, 2, 3)]),
    "summed_only_here": ("ij,k->i", [(2, 3), (4,)]),
    "uppercase": ("iJ->Ji", [(2, 3)]),
    "spaces": (" i j , j k -> i k ", [(2, 3), (3, 4)]),
}


def arrays_for(shapes):
    return [signed(*s, seed=k) for k, s in enumerate(shapes)]


@pytest.mark.parametrize("case", CASES)
def test_values_match_numpy(case):
    eq, shapes = CASES[case]
    arrays = arrays_for(shapes)
    got = opsdk.einsum(eq, *[opsdk.to_tensor(a) for a in arrays])
    np.testing.assert_allclose(got.numpy(), np.einsum(eq.replace(" ", ""), *arrays), rtol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_gradients_match_central_differences(case):
    eq, shapes = CASES[case]
    assert_gradients(lambda *ts: opsdk.einsum(eq, *ts) ** 2, arrays_for(shapes))


def test_a_repeated_output_label_puts_values_on_a_diagonal_as_in_paddle():
    a = signed(2, 3)
    got = opsdk.einsum("ij->ii", opsdk.to_tensor(a)).numpy()
    np.testing.assert_allclose(got, np.diag(a.sum(1)))
    assert_gradients(lambda x: opsdk.einsum("ij->ii", x) ** 2, [a])


def test_size_one_axes_broadcast_against_a_label():
    a, b = signed(1, 3), signed(2, 3, seed=1)
    got = opsdk.einsum("ij,ij->ij", opsdk.to_tensor(a), opsdk.to_tensor(b))
    np.testing.assert_allclose(got.numpy(), a * b)
    assert_gradients(lambda x, y: opsdk.einsum("ij,ij->ij", x, y) ** 2, [a, b])


def test_identity_is_a_view_and_a_permutation_is_a_copy_as_in_paddle():
    x = opsdk.to_tensor(signed(2, 2))
    same, swapped = opsdk.einsum("ij->ij", x), opsdk.einsum("ij->ji", x)
    x[0, 1] = 100.0
    assert same.numpy()[0, 1] == 100.0 and swapped.numpy()[1, 0] != 100.0


def test_operands_as_one_list_and_size_zero_axes():
    a, b = opsdk.to_tensor(signed(2, 3)), opsdk.to_tensor(signed(3, 4))
    assert opsdk.einsum("ij,jk->ik", [a, b]).shape == [2, 4]
    z = opsdk.einsum("ij,jk->ik", opsdk.zeros([2, 0]), opsdk.zeros([0, 4]))
    assert z.shape == [2, 4] and not z.numpy().any()


def test_integer_operands():
    a = opsdk.to_tensor([[1, 2]], dtype="int64")
    assert opsdk.einsum("ij,kj->ik", a, a).numpy().tolist() == [[5]]


@pytest.mark.parametrize("eq, shapes, error, message", [
    ("ij,jk->ik", [(2, 3)], OpArgumentError, "has 2 operand terms.*got: 1 operands"),
    ("ij,jk->ik", [(2, 3), (2, 3)], ShapeError, "label 'j' has sizes 3 and 2"),
    ("ij->ik", [(2, 3)], OpArgumentError, "output label 'k' .* appears in no operand"),
    ("ijk->i", [(2, 3)], ShapeError, "has 3 labels for operand 0 of 2 dims"),
    ("i1->i", [(2, 3)], OpArgumentError, "label '1' .* is not a letter"),
    ("ii->i", [(2, 3)], ShapeError, "label 'i' repeats in term 0 with sizes 2 and 3"),
    ("i..j->i", [(2, 3)], OpArgumentError, "stray '.'"),
    ("ij->i->j", [(2, 3)], OpArgumentError, "more than one '->'"),
])
def test_bad_equations_are_clear_errors(eq, shapes, error, message):
    with pytest.raises(error, match=message):
        opsdk.einsum(eq, *[opsdk.ones(list(s)) for s in shapes])


def test_mixed_dtypes_and_no_operands_are_errors():
    with pytest.raises(DTypeError, match="einsum: every input must have one dtype"):
        opsdk.einsum("i,i->", opsdk.ones([2], dtype="float32"), opsdk.ones([2], dtype="float64"))
    with pytest.raises(OpArgumentError, match="einsum: expected: at least one tensor"):
        opsdk.einsum("i")


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 3), m=st.integers(1, 3), k=st.integers(0, 3), seed=st.integers(0, 99),
       eq=st.sampled_from(["ij,jk->ik", "ij,jk->ki", "ij,jk->j", "ij,jk->", "ij,jk->ijk"]))
def test_two_operand_contractions_on_any_sizes(n, m, k, seed, eq):
    a, b = signed(n, m, seed=seed), signed(m, k, seed=seed + 1)
    got = opsdk.einsum(eq, opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy()
    np.testing.assert_allclose(got, np.einsum(eq, a, b), rtol=1e-12, atol=1e-14)
    if a.size + b.size <= 10:
        assert_gradients(lambda x, y: opsdk.einsum(eq, x, y) * 1.5, [a, b])


PADDLE = ["matmul", "implicit", "transpose", "trace", "diagonal", "sum", "outer", "batched",
          "ellipsis", "ellipsis_broadcast", "three", "scalar", "uppercase", "spaces"]


@pytest.mark.paddle
@pytest.mark.parametrize("case", PADDLE)
def test_values_and_gradients_match_paddle(case):
    eq, shapes = CASES[case]
    arrays = arrays_for(shapes)
    assert_same_as_paddle(lambda P, *ts: P.einsum(eq, *ts), arrays,
                          diff=tuple(range(len(arrays))))


@pytest.mark.paddle
def test_repeated_output_labels_match_paddle():
    assert_same_as_paddle(lambda P, x: P.einsum("ij->ii", x), [signed(2, 3)])
    assert_same_as_paddle(lambda P, x: P.einsum("ii->ii", x), [signed(3, 3)])


@pytest.mark.torch
@pytest.mark.parametrize("case", ["matmul", "trace", "diagonal", "ellipsis_broadcast", "three",
                                  "repeated_in_term", "summed_only_here"])
def test_values_and_gradients_match_torch(case):
    torch = __import__("torch")
    eq, shapes = CASES[case]
    arrays = arrays_for(shapes)
    assert_same_as_torch(lambda P, *ts: P.einsum(eq, *ts), lambda *ts: torch.einsum(eq, *ts),
                         arrays, diff=tuple(range(len(arrays))))


@pytest.mark.paddle
def test_a_wrong_label_count_is_the_assertion_error_paddle_raises():
    from helpers.frameworks import assert_raises_as_paddle
    err = assert_raises_as_paddle(lambda P: P.einsum("ij,j->i", P.ones([2, 3]), P.ones([3, 2])),
                                  AssertionError)
    assert isinstance(err, ShapeError) and "term 1" in str(err)

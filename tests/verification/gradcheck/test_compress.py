"""Grouped probing along the sparsity of the side computed in full."""
import numpy as np

from opsdk.verification.gradcheck.compress import GroupProbe, color_columns, fill_by_groups


def test_groups_have_disjoint_rows():
    rng = np.random.default_rng(0)
    pattern = rng.random((30, 40)) < 0.1
    groups = color_columns(pattern)
    assert sorted(c for g in groups for c in g) == list(range(40))
    for g in groups:
        assert pattern[:, g].sum(axis=1).max() <= 1


def test_diagonal_pattern_is_one_group():
    assert color_columns(np.eye(6, dtype=bool)) == [list(range(6))]


def test_dense_pattern_is_one_group_per_column():
    assert len(color_columns(np.ones((3, 5), dtype=bool))) == 5


def test_exhausted_budget_leaves_every_later_column_alone():
    groups = color_columns(np.eye(6, dtype=bool), budget=0)
    assert groups == [[c] for c in range(6)]


def probe_of(true_jac, calls):
    def group(units, r):
        calls.append(len(units))
        return true_jac[:, units] @ r, r

    def one(u):
        calls.append(1)
        return true_jac[:, u]

    def limits(rows, units):
        shape = np.broadcast(rows, units).shape
        return np.full(shape, 1e-9), np.full(shape, 1e-9)
    return GroupProbe(group, one, limits, rtol_on_probe=True)


def test_agreeing_side_is_rebuilt_from_few_probes():
    jac = np.diag([1.0, 2.0, 3.0, 4.0])
    calls = []
    got = fill_by_groups(jac, probe_of(jac, calls), np.random.default_rng(0))
    np.testing.assert_allclose(got, jac)
    assert calls == [4]


def test_a_missing_entry_makes_its_group_redone_exactly():
    known = np.diag([1.0, 2.0, 3.0, 4.0])
    truth = known.copy()
    truth[0, 3] = 0.5  # the side computed in full missed this entry
    calls = []
    got = fill_by_groups(known, probe_of(truth, calls), np.random.default_rng(0))
    np.testing.assert_allclose(got, truth)
    assert calls == [4, 1, 1, 1, 1]


def test_a_wrong_value_makes_its_group_redone_exactly():
    known = np.diag([1.0, 2.0, 3.0])
    truth = np.diag([1.0, -2.0, 3.0])
    got = fill_by_groups(known, probe_of(truth, []), np.random.default_rng(1))
    np.testing.assert_allclose(got, truth)

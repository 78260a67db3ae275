def test_backends_with_equal_gradients_pass(good_results):
    rows = [r for r in good_results if r.check == "backward_agreement" and r.backend == "c"]
    assert len(rows) == 2 and all(r.status == "pass" for r in rows)


def test_c_backward_with_a_wrong_factor_fails_naming_the_argument(bad_results):
    (row,) = [r for r in bad_results if r.case_id == "badpack.cube_c_factor[c-float64-backward_agreement]"]
    assert row.status == "fail"
    assert "gradient of 'x' (argument 0)" in row.detail

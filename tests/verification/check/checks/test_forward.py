def test_backends_that_agree_pass(good_results):
    rows = [r for r in good_results if r.check == "forward" and r.backend == "c"]
    assert len(rows) == 2 and all(r.status == "pass" for r in rows)


def test_python_in_float64_is_the_reference_so_never_compared_with_itself(good_results):
    rows = [r for r in good_results if r.check == "forward" and r.backend == "python"]
    assert rows and {r.dtype for r in rows} == {"float32"}


def test_c_kernel_disagreeing_in_one_dtype_fails_only_there(bad_results):
    rows = {r.dtype: r for r in bad_results if r.op == "badpack.cube_f32_drift" and r.check == "forward"}
    assert rows["float32"].status == "fail" and rows["float64"].status == "pass"
    assert "output 0:" in rows["float32"].detail and rows["float32"].worst > 0.01

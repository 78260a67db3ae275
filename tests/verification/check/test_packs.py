"""The acceptance tests of issue 5: the good pack passes, the bad one fails exactly where planted."""
from fixtures.packs import EXPECTED_BAD_FAILURES, registered
from opsdk.verification.check import run_checks, select_ops


def test_good_pack_passes_every_check(good_results):
    failed = [f"{r.case_id}: {r.detail}" for r in good_results if r.failed]
    assert failed == []
    assert {r.backend for r in good_results if r.status == "pass"} >= {"python", "c"}


def test_good_pack_checks_every_op_in_both_dtypes(good_results):
    ran = {(r.op, r.dtype) for r in good_results if r.status == "pass"}
    ops = {"cube", "leaky", "mul", "pick", "sincos", "swish"}
    assert ran == {(f"goodpack.{op}", d) for op in ops for d in ("float32", "float64")}


def test_bad_pack_fails_exactly_the_planted_bugs(bad_results):
    failed = {(r.op, r.backend, r.dtype, r.check): r.status for r in bad_results if r.failed}
    assert failed == EXPECTED_BAD_FAILURES


def test_wrong_broadcast_reduction_fails_only_on_broadcast_samples(bad_results):
    (row,) = [r for r in bad_results if r.case_id == "badpack.mul_mean_broadcast[python-float64-gradcheck]"]
    assert "broadcast " in row.detail and "-- sample 0 (" not in row.detail


def test_pack_that_fails_to_import_is_shown_as_failed():
    with registered("broken_pack", "brokenpack"):
        ops, failures = select_ops(packs=["brokenpack"])
        results = run_checks([], failures)
    (row,) = results
    assert (row.op, row.check, row.status) == ("brokenpack", "load", "fail")
    assert "ImportError" in row.detail


def test_backend_unavailable_here_is_skipped_with_its_reason_never_passed(good_results):
    from opsdk.kernels import cuda_status

    available, why = cuda_status()
    cuda = [r for r in good_results if r.backend == "cuda"]
    assert cuda, "the good pack's cube has a CUDA kernel"
    if not available:
        assert {(r.status, r.detail) for r in cuda} == {("skip", why)}

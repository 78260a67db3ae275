from opsdk import TensorSpec
from opsdk.verification.check import plan_cases, run_case, run_checks, select_ops
from opsdk.verification.check.result import CheckResult

from .helpers import verdict
from .ops import X, Raises, Square, SquareTwiceWrong


def test_fast_mode_failure_is_rerun_and_reported_in_full_mode(pack):
    result = verdict(pack, SquareTwiceWrong, "gradcheck", inputs=X, mode="fast")
    assert result.status == "fail" and result.mode == "full"
    assert "full-mode re-run" in result.detail


def test_passing_case_keeps_the_fast_mode_verdict(pack):
    result = verdict(pack, Square, "gradcheck", inputs=X, mode="fast")
    assert result.status == "pass" and result.mode == "fast"


def test_op_that_raises_is_an_error_with_the_traceback(pack):
    result = verdict(pack, Raises, "no_grad", inputs=X)
    assert result.status == "error"
    assert "RuntimeError: forward exploded" in result.detail and "Traceback" in result.detail


def test_failure_report_names_the_sample(pack):
    result = verdict(pack, SquareTwiceWrong, "gradcheck", inputs=X)
    assert "-- sample 0 (float64[2, 3]):" in result.detail


def test_unavailable_backend_is_a_skip_with_the_reason_never_a_pass(pack, monkeypatch):
    from opsdk.kernels import Kernel

    monkeypatch.setattr("opsdk.kernels.cuda._status", (False, "CuPy is not installed"))
    kernel = Kernel("unit.gpu_only_twice")
    kernel.python(lambda x: 2 * x)
    from opsdk.kernels import CudaSource

    kernel.cuda(CudaSource(code='extern "C" __global__ void k() {}', names=("k",)))(lambda m, x: x)
    result = verdict(pack, Square, "gradcheck", backend="cuda", inputs=X, kernels=(kernel,))
    assert result.status == "skip" and result.detail == "CuPy is not installed"


def test_c_kernel_that_does_not_compile_fails_every_check_of_the_backend(pack):
    from opsdk.kernels import CSource, Kernel

    kernel = Kernel("unit.broken_c")
    kernel.python(lambda x: x)
    kernel.c(CSource(code="void broken(double *x) { x[0] = ; }", cdef="void broken(double *x);"))(
        lambda lib, ffi, x: x)
    result = verdict(pack, Square, "forward", backend="c", inputs=X, kernels=(kernel,))
    assert result.status == "error" and "KernelBuildError" in result.detail


def test_run_checks_puts_load_failures_first_and_reports_progress(pack):
    pack("unitpack", lambda register: register(Square, name="sq", inputs=X))
    ops, _ = select_ops(["unitpack.sq"])
    failure = type("Failure", (), {"pack": "gone", "traceback": "tb", "__str__": lambda s: "gone failed"})()
    seen = []
    results = run_checks(plan_cases(ops, checks=["no_grad"]), [failure], progress=seen.append)
    assert [r.check for r in results] == ["load", "no_grad", "no_grad"]
    assert results[0].failed and seen == results[1:]


def test_run_case_is_deterministic_for_a_seed(pack):
    pack("unitpack", lambda register: register(SquareTwiceWrong, name="sq",
                                               inputs=[TensorSpec(shape=(3,))]))
    ops, _ = select_ops(["unitpack.sq"])
    (case,) = plan_cases(ops, dtypes=["float64"], checks=["gradcheck"])
    first, second = run_case(case, seed=3), run_case(case, seed=3)
    assert isinstance(first, CheckResult) and first.worst == second.worst


def test_an_element_a_kernel_never_writes_fails_the_check_naming_kernel_and_indices(pack):
    import numpy as np

    from opsdk.kernels import Kernel

    from .stateful_ops import arr, ten

    half = Kernel("unit.half_written")

    @half.python
    def _(x):
        out = np.empty_like(x)
        out.reshape(-1)[:-1] = 2 * x.reshape(-1)[:-1]
        return out

    class Doubled(Square):
        @staticmethod
        def forward(ctx, x):
            return ten(half(arr(x)))

        @staticmethod
        def backward(ctx, dy):
            return dy * 2

    result = verdict(pack, Doubled, "no_grad", inputs=X, kernels=(half,))
    assert result.status == "fail"
    assert result.message.startswith("kernel 'unit.half_written' (python) left 1 of 6 elements "
                                     "of its output 0 (shape [2, 3]) unwritten: [1, 2]")


def test_a_failure_carries_its_message_and_replay_command(pack):
    result = verdict(pack, SquareTwiceWrong, "gradcheck", inputs=X)
    assert result.message.startswith("gradcheck failed")
    assert result.replay == ("opsdk check unitpack.op --backend python --dtype float64 --check "
                             "gradcheck --seed 0")
    assert result.as_dict()["replay"] == result.replay


def test_each_case_starts_from_the_op_s_fresh_state(pack):
    from . import stateful_ops

    stateful_ops._MASKS.clear()
    pack("unitpack", lambda register: register(stateful_ops.ShapeCachedRelu, name="relu",
                                               inputs=[TensorSpec(shape=(2, 3), avoid=(0.0,))]))
    ops, _ = select_ops(["unitpack.relu"])
    for case in plan_cases(ops, checks=["forward", "gradcheck"]):
        run_case(case)
        assert stateful_ops._MASKS == {}, case.case_id

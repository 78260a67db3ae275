"""The cuda backend: the fixture's CUDA kernels compile (CPU), and pass every check on a GPU."""
import pytest

from fixtures.packs import load, registered


def test_cube_cuda_source_compiles_with_nvcc():
    from opsdk.kernels import find_nvcc

    good = load("good_pack")
    result = good.cube_fwd.check_cuda()
    if find_nvcc() is None:
        assert not result.checked and result.reason
    else:
        assert result.checked and ".entry cube_bwd_f64" in result.ptx


@pytest.mark.gpu
def test_good_pack_passes_on_the_cuda_backend():
    from opsdk.kernels import cuda_status

    available, why = cuda_status()
    if not available:
        pytest.skip(f"needs a CUDA GPU and CuPy: {why}")
    from opsdk.verification.check import plan_cases, run_checks, select_ops

    with registered("good_pack", "goodpack"):
        ops, _ = select_ops(["goodpack.cube"])
        results = run_checks(plan_cases(ops, backends=["cuda"]))
    assert results and all(r.status in ("pass", "n/a") for r in results), \
        [f"{r.case_id}: {r.detail}" for r in results if r.status not in ("pass", "n/a")]

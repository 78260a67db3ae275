"""``cuda_kernels(...)``: every CUDA kernel of a pack against its python kernel, as pytest tests.

One test per kernel x recorded call x dtype x layout (x growing axis), each over the sizes
1, 7, 255, 256, 257, 4097 and one past a full grid (16385 on the simulator), with ids like ``mypack.scale_fwd[float32-strided-3x4]``.
They run on a GPU where CuPy finds one, on the CPU CUDA simulator under ``--opsdk-cuda-sim``
or ``OPSDK_CUDA_SIM=1``, and are skipped (with the reason) otherwise. See
``opsdk.kernels.cudasim.differential`` for how calls are recorded, resized and compared.
"""
from dataclasses import dataclass

import pytest

from ..kernels.cudasim.differential import DTYPES, LAYOUTS, SIZES


@dataclass(frozen=True)
class CudaKernels:
    """Which ops' CUDA kernels the pytest plugin turns into differential tests."""

    ops: tuple = ()
    packs: tuple = ()
    sizes: tuple = SIZES
    dtypes: tuple = DTYPES
    layouts: tuple = LAYOUTS
    seed: int = 0

    # the plugin recognises declarations by this marker
    __opsdk_cuda_kernels__ = True


def _names(value):
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def cuda_kernels(*ops, pack=None, sizes=SIZES, dtype=None, layout=None, seed=0):
    """Declare, in a test module, the ops whose CUDA kernels are tested against their python ones.

    Args:
        *ops: op names; none means every op of ``pack`` (or of every loaded pack).
        pack: a pack name or a list of them.
        sizes: the sizes each call is resized to (default ``differential.sizes()``: 1, 7, 255,
            256, 257, 4097 and one element past a full launch_1d grid, 16385 on the simulator).
        dtype: limit to a dtype or a list of them (default float32 and float64).
        layout: ``"contiguous"``, ``"strided"`` or both (default).
        seed: seed of the drawn values.

    Returns:
        CudaKernels: assign it to a module-level name so pytest collects it.

    Example::

        # tests/test_cuda_kernels.py of the pack "mypack"; run with: pytest --opsdk-cuda-sim
        import opsdk.testing
        test_mypack_cuda = opsdk.testing.cuda_kernels(pack="mypack")
    """
    return CudaKernels(tuple(ops), _names(pack), None if sizes is None else tuple(sizes), _names(dtype) or DTYPES,
                       _names(layout) or LAYOUTS, seed)


class CudaKernelItem(pytest.Item):
    """One kernel x call x dtype x layout, over every size: cuda must agree with python."""

    def __init__(self, *, case, sizes, seed, **kwargs):
        super().__init__(**kwargs)
        self.case, self.sizes, self.seed = case, sizes, seed

    def runtest(self):
        from ..kernels import cuda_status
        from ..kernels.cudasim.differential import run_case

        available, why = cuda_status()
        if not available:
            pytest.skip(f"needs CUDA: run with --opsdk-cuda-sim or OPSDK_CUDA_SIM=1 (the CPU "
                        f"simulator), or on a GPU ({why})")
        failures = run_case(self.case, self.sizes, self.seed)
        if failures:
            raise CudaKernelMismatch(self.case, failures)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CudaKernelMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, self.name


class CudaKernelMismatch(AssertionError):
    """The sizes where a CUDA kernel disagreed with (or was refused next to) its python kernel."""

    def __init__(self, case, failures):
        lines = [f"FAIL {case.label}: the cuda kernel is wrong at size(s) {', '.join(str(s) for s, _ in failures)}"]
        lines += [f"-- size {size}: {why}" for size, why in failures]
        super().__init__("\n".join(lines))


def collect_cuda_kernels(collector, declaration):
    """The items of one declaration (failed packs first)."""
    from ..verification.check import select_ops
    from ..verification.check.cuda_cases import cases
    from .collect import PackLoadItem

    ops, failures = select_ops(declaration.ops, declaration.packs)
    items = [PackLoadItem.from_parent(collector, name=f"{f.pack}[load]", failure=f) for f in failures]
    for op in ops:
        if not any("cuda" in k.backends for k in op.kernels):
            continue
        for case in cases(op, declaration.dtypes, declaration.layouts, declaration.seed):
            items.append(CudaKernelItem.from_parent(collector, name=case.label, case=case,
                                                    sizes=declaration.sizes, seed=declaration.seed))
    return items

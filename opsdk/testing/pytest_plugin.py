"""The pytest plugin (entry point ``pytest11``): collects ``opsdk.testing.op_checks`` declarations.

This module imports nothing heavy: suites that declare no op checks pay for two hook calls
per collected name, and no pack is loaded and nothing compiled until a declaration is found.
"""


def pytest_addoption(parser):
    group = parser.getgroup("opsdk", "opsdk op verification")
    group.addoption("--opsdk-full", action="store_true", default=False,
                    help="run op checks in full mode (the default: full Jacobians, every derived "
                         "sample), whatever a declaration says")
    group.addoption("--opsdk-fast", action="store_true", default=False,
                    help="run op checks in the cheap fast mode (random projections, a few "
                         "derived samples; a failure is re-run in full mode)")
    group.addoption("--opsdk-seed", type=int, default=None,
                    help="seed of op-check samples (default: 0, or the declaration's seed)")
    group.addoption("--opsdk-max-memory", default=None, metavar="SIZE",
                    help="memory one op-check sample may use (4G, 512M, 25%); beyond it the op's "
                         "check fails with the bytes asked for (default: a quarter of the "
                         "machine's memory, OPSDK_CHECK_MAX_MEMORY)")
    group.addoption("--opsdk-cuda-sim", nargs="?", const="on", default=None, choices=("on", "auto", "off"),
                    help="run the cuda backend (CuPy, RawKernel) on the CPU CUDA simulator, as "
                         "OPSDK_CUDA_SIM=1 does: gpu-marked tests and cuda op checks run here; "
                         "=auto: only where CuPy finds no GPU")


def _simulate(value):
    if value in ("on", "auto"):
        from opsdk.kernels import cudasim

        cudasim.install() if value == "on" else cudasim.install_unless_a_gpu()


def pytest_load_initial_conftests(early_config, parser, args):
    # before conftests import anything that asks whether CUDA runs
    _simulate(getattr(early_config.known_args_namespace, "opsdk_cuda_sim", None))


def pytest_configure(config):
    _simulate(config.getoption("opsdk_cuda_sim", None))
    budget = config.getoption("opsdk_max_memory", None)
    if budget is not None:
        import pytest

        from opsdk.verification.check.memory import parse_size, set_budget

        try:
            set_budget(parse_size(budget))
        except ValueError as error:
            raise pytest.UsageError(f"--opsdk-max-memory: {error}") from None


def pytest_report_header(config):
    import sys

    if getattr(sys.modules.get("cupy"), "__opsdk_simulator__", False):
        return "opsdk: CUDA simulated on the CPU (cuda backend and gpu tests run here; not a benchmark)"
    return None


def pytest_pycollect_makeitem(collector, name, obj):
    # look the marker up on the type: an instance's __getattr__ could do anything
    if getattr(type(obj), "__opsdk_cuda_kernels__", False) is True:
        from .cuda_differential import collect_cuda_kernels

        return collect_cuda_kernels(collector, obj)
    if getattr(type(obj), "__opsdk_op_checks__", False) is not True:
        return None
    from .collect import collect_declaration

    return collect_declaration(collector, obj)

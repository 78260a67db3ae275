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


def pytest_pycollect_makeitem(collector, name, obj):
    # look the marker up on the type: an instance's __getattr__ could do anything
    if getattr(type(obj), "__opsdk_op_checks__", False) is not True:
        return None
    from .collect import collect_declaration

    return collect_declaration(collector, obj)

"""Running one check of one in-test op, for the tests of each check."""
from opsdk.verification.check import plan_cases, run_case, select_ops


def verdict(pack, function, check, backend="python", dtype="float64", mode="full", **options):
    """The CheckResult of ``check`` for ``function`` registered (as pack 'unitpack') with ``options``."""
    name = options.pop("name", "op")

    def register_ops(register):
        register(function, name=name, **options)

    pack("unitpack", register_ops)
    ops, _ = select_ops([f"unitpack.{name}"])
    (case,) = plan_cases(ops, backends=[backend], dtypes=[dtype], checks=[check])
    return run_case(case, mode=mode)


def one_case(name, backend, dtype, check):
    """The CheckResult of one case of a registered op."""
    ops, _ = select_ops([name])
    (case,) = plan_cases(ops, backends=[backend], dtypes=[dtype], checks=[check])
    return run_case(case)

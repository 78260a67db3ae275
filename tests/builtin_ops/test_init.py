"""builtin_ops: every module listed in OPS registers its op."""
from opsdk import builtin_ops


class _Collect:
    """A stand-in for the registry's ``register``: remembers the names it is given."""

    def __init__(self):
        self.names = []

    def __call__(self, function, **options):
        self.names.append(options["name"])


def test_register_all_registers_one_op_per_listed_module():
    register = _Collect()
    builtin_ops.register_all(register)
    assert register.names == list(builtin_ops.OPS)

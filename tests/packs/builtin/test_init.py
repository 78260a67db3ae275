"""The built-in pack: every module listed in OPS registers its op."""
from opsdk.packs import builtin


class _Collect:
    """A stand-in for the registry's ``register``: remembers the names it is given."""

    def __init__(self):
        self.names = []

    def __call__(self, function, **options):
        self.names.append(options["name"])


def test_register_all_registers_one_op_per_listed_module():
    register = _Collect()
    builtin.register_all(register)
    assert register.names == list(builtin.OPS)

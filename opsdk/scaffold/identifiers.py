"""The spellings the templates and the name checks share: the backends, PEP 508 distribution
names, versions, and an op's Function class name. Kept apart from names.py so the template
context and the reserved-name scan (which names.py consults) can use them without a circle."""
import re

BACKENDS = ("python", "c", "cuda")

# PEP 508's names: what `pip install` and the distribution's metadata accept
DISTRIBUTION = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
# a version as PEP 440 writes it (and nothing that could end a string it is written into)
VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+!_-]{0,63}$")


def class_name(op):
    """The Function class name for an op: 'fused_swish' -> 'FusedSwish' (check_op_name refuses an
    op whose class name the generated module binds otherwise, such as 'OP')."""
    name = "".join(part[:1].upper() + part[1:] for part in op.split("_") if part)
    return name if name.isidentifier() else "Op" + name

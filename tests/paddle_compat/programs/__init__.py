"""The differential programs: each is ``fn(paddle)`` returning a dict of observations.

``program(item=...)`` registers one; ``item`` names what it covers (an item number of
issue 14, ``names`` for the missing public names, ``seed`` for the seed documents'
examples). ``differs`` marks a documented difference (docs/paddle.md): the test then checks
that the two runs differ exactly where ``differs`` says, instead of agreeing.
"""
import importlib

PROGRAMS = {}

MODULES = ("grad_api", "flags", "hooks", "pylayer", "inplace", "ops", "grad_mode", "nn_layers",
           "embedding", "optimizers", "clip", "lr", "names", "amp", "seeds", "forward_mode")


class Program:
    def __init__(self, fn, item, differs, rtol, atol):
        self.fn, self.item, self.differs = fn, item, differs
        self.rtol, self.atol = rtol, atol
        self.name = fn.__name__

    def __call__(self, paddle):
        return self.fn(paddle)


def program(item, differs=None, rtol=1e-5, atol=1e-6):
    """Register fn(paddle) -> observations under its function name."""
    def register(fn):
        if fn.__name__ in PROGRAMS:
            raise ValueError(f"two differential programs are named {fn.__name__}")
        PROGRAMS[fn.__name__] = Program(fn, item, differs, rtol, atol)
        return fn
    return register


def load_all():
    """Import every program module; returns PROGRAMS."""
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return PROGRAMS

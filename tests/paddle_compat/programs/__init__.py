"""The differential programs: each is ``fn(paddle)`` returning a dict of observations.

``program(item=...)`` registers one; ``item`` names what it covers (an item number of
issue 14, ``names`` for the missing public names, ``seed`` for the seed documents'
examples). ``differs`` marks a documented difference (docs/paddle.md): the test then checks
that the two runs differ exactly where ``differs`` says, instead of agreeing. ``isolate`` runs
the Paddle side in a child process: for a program where Paddle's own kernel fails, which it
may do by corrupting memory rather than by raising.
"""
import importlib

PROGRAMS = {}

MODULES = ("grad_api", "flags", "hooks", "pylayer", "inplace", "ops", "grad_mode", "nn_layers",
           "embedding", "optimizers", "clip", "lr", "names", "amp", "seeds", "outside",
           "forward_mode", "fresh_1202", "fresh_1203", "fresh_1204", "fresh_1205",
           "fresh_1206", "fresh_1207", "fresh_1208", "fresh_1209", "fresh_1210",
           "fresh_1211", "fresh_1212", "fresh_1213", "fresh_1214", "fresh_1215",
           "attention", "training_scripts")


class Program:
    def __init__(self, fn, item, differs, rtol, atol, isolate=False):
        self.fn, self.item, self.differs = fn, item, differs
        self.rtol, self.atol, self.isolate = rtol, atol, isolate
        self.name = fn.__name__

    def __call__(self, paddle):
        return self.fn(paddle)


def program(item, differs=None, rtol=1e-5, atol=1e-6, isolate=False):
    """Register fn(paddle) -> observations under its function name."""
    def register(fn):
        if fn.__name__ in PROGRAMS:
            raise ValueError(f"two differential programs are named {fn.__name__}")
        PROGRAMS[fn.__name__] = Program(fn, item, differs, rtol, atol, isolate)
        return fn
    return register


def load_all():
    """Import every program module; returns PROGRAMS."""
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return PROGRAMS

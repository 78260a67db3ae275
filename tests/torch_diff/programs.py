"""Random compositions of core ops, built once and run in opsdk or in PyTorch.

A program is a list of steps over a pool of tensors that starts with the inputs
x (2, 3), y (3,) and z (2, 1); every op keeps shapes broadcastable with each other, so any two
pool entries can meet in a binary op. The result goes through a matmul with w (3, 2).
"""
import numpy as np
import opsdk
import torch

# name: (opsdk version, torch version); inputs and outputs stay in a moderate range
UNARY = {
    "exp_half": (lambda t: opsdk.exp(t * 0.5), lambda t: torch.exp(t * 0.5)),
    "tanh": (opsdk.tanh, torch.tanh),
    "sin": (opsdk.sin, torch.sin),
    "cos": (opsdk.cos, torch.cos),
    "sigmoid": (opsdk.sigmoid, torch.sigmoid),
    "square": (lambda t: t * t, lambda t: t * t),
    "cube_scaled": (lambda t: t ** 3 / 3.0, lambda t: t ** 3 / 3.0),
    "log1p_square": (lambda t: opsdk.log(1.0 + t * t), lambda t: torch.log(1.0 + t * t)),
    "soft_abs": (lambda t: opsdk.sqrt(t * t + 1.0), lambda t: torch.sqrt(t * t + 1.0)),
    "abs": (opsdk.abs, torch.abs),
    "neg": (lambda t: -t, lambda t: -t),
    "clip": (lambda t: opsdk.clip(t, -0.8, 0.8), lambda t: torch.clamp(t, -0.8, 0.8)),
    "mean_first_axis": (lambda t: opsdk.mean(t, axis=0, keepdim=True),
                        lambda t: torch.mean(t, dim=0, keepdim=True)),
    "max_last_axis": (lambda t: opsdk.max(t, axis=-1, keepdim=True),
                      lambda t: torch.amax(t, dim=-1, keepdim=True)),
    "log_softmax": (lambda t: t - opsdk.logsumexp(t, axis=-1, keepdim=True),
                    lambda t: t - torch.logsumexp(t, dim=-1, keepdim=True)),
    "var_last_axis": (lambda t: opsdk.var(t, axis=-1, keepdim=True) if t.shape[-1] > 1 else t,
                      lambda t: torch.var(t, dim=-1, keepdim=True) if t.shape[-1] > 1 else t),
    "flip": (lambda t: opsdk.flip(t, [-1]), lambda t: torch.flip(t, [-1])),
}

BINARY = {
    "add": (lambda a, b: a + b, lambda a, b: a + b),
    "subtract": (lambda a, b: a - b, lambda a, b: a - b),
    "multiply": (lambda a, b: a * b, lambda a, b: a * b),
    "safe_divide": (lambda a, b: a / (1.0 + b * b), lambda a, b: a / (1.0 + b * b)),
    "maximum": (opsdk.maximum, torch.maximum),
    "minimum": (opsdk.minimum, torch.minimum),
    "where": (lambda a, b: opsdk.where(a > b, a, b * 2.0),
              lambda a, b: torch.where(a > b, a, b * 2.0)),
    "pow": (lambda a, b: opsdk.pow(1.0 + a * a, b * 0.5),
            lambda a, b: torch.pow(1.0 + a * a, b * 0.5)),
}

INPUT_SHAPES = [(2, 3), (3,), (2, 1), (3, 2)]


def random_program(seed, steps=6):
    """A reproducible list of (op name, operand pool indices)."""
    rng = np.random.default_rng(seed)
    program, size = [], 3
    for _ in range(steps):
        if rng.random() < 0.4:
            program.append((str(rng.choice(list(UNARY))), (int(rng.integers(size)),)))
        else:
            program.append((str(rng.choice(list(BINARY))),
                            (int(rng.integers(size)), int(rng.integers(size)))))
        size += 1
    return program


def describe(program):
    names = ["x", "y", "z"] + [f"t{i}" for i in range(len(program))]
    return "; ".join(f"t{i} = {op}({', '.join(names[j] for j in args)})"
                     for i, (op, args) in enumerate(program))


def build(program, framework):
    """The program as a function of (x, y, z, w) in 'opsdk' or 'torch'."""
    side = 0 if framework == "opsdk" else 1
    broadcast = opsdk.broadcast_to if side == 0 else torch.broadcast_to
    matmul = opsdk.matmul if side == 0 else torch.matmul

    def fn(x, y, z, w):
        pool = [x, y, z]
        for op, args in program:
            table = UNARY if len(args) == 1 else BINARY
            pool.append(table[op][side](*[pool[j] for j in args]))
        last = broadcast(pool[-1], [2, 3] if side == 0 else (2, 3))
        return matmul(last, w)
    return fn


def inputs(seed):
    rng = np.random.default_rng(10_000 + seed)
    return [rng.uniform(-1.5, 1.5, size=s) for s in INPUT_SHAPES]

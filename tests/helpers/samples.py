"""Reproducible float64 inputs kept away from the kinks and poles of the core ops."""
import numpy as np


def signed(*shape, seed=0):
    """|values| in [0.5, 1.5] with random signs: never near 0, where abs/sign/max have kinks.

    ``seed`` is an int or a NumPy Generator (then the draws continue from it).
    """
    rng = np.random.default_rng(seed)
    return np.asarray(rng.uniform(0.5, 1.5, size=shape) * rng.choice([-1.0, 1.0], size=shape))


def positive(*shape, seed=0):
    """Values in [0.5, 2.0]: safe for log, sqrt, division and fractional powers."""
    return np.random.default_rng(seed).uniform(0.5, 2.0, size=shape)


def distinct(*shape, seed=0):
    """A shuffled range scaled to [-1, 1]: no ties, so max/min have one clear winner."""
    n = int(np.prod(shape))
    values = np.linspace(-1.0, 1.0, n) if n > 1 else np.array([0.5])
    return np.random.default_rng(seed).permutation(values).reshape(shape)

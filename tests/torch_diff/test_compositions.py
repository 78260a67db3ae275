"""Random compositions of core ops agree with PyTorch: values, first- and second-order
gradients in float64; values and first-order gradients in float32."""
import numpy as np
import pytest

pytest.importorskip("torch", reason="the differential suite compares against PyTorch")

from .compare import assert_matches_torch  # noqa: E402
from .programs import build, describe, inputs, random_program  # noqa: E402

pytestmark = pytest.mark.torch

SEEDS = range(30)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_composition_matches_torch_to_second_order_in_float64(seed):
    program = random_program(seed)
    assert_matches_torch(build(program, "opsdk"), build(program, "torch"), inputs(seed),
                         seed=seed, label=describe(program))


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_random_composition_matches_torch_in_float32(seed):
    program = random_program(seed)
    arrays = [a.astype(np.float32) for a in inputs(seed)]
    assert_matches_torch(build(program, "opsdk"), build(program, "torch"), arrays, seed=seed,
                         dtype="float32", second_order=False, rtol=1e-4, atol=1e-5,
                         label=describe(program))


def test_programs_cover_every_op():
    from .programs import BINARY, UNARY
    used = {op for seed in SEEDS for op, _ in random_program(seed)}
    assert used == set(UNARY) | set(BINARY)

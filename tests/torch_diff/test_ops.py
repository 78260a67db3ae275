"""Each core op against PyTorch: values, first- and second-order gradients (float64), and
values and first-order gradients in float32."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the differential suite compares against PyTorch")

import opsdk  # noqa: E402
from helpers.samples import distinct, positive, signed  # noqa: E402

from .compare import assert_matches_torch  # noqa: E402

pytestmark = pytest.mark.torch

S, P, D = signed, positive, distinct

# name: (opsdk fn, torch fn, inputs); the outputs are squared or weighted where the op is
# linear, so the second order runs through the op's own backward
PAIRS = {
    "add": (lambda x, y: x + y, lambda x, y: x + y, [S(2, 3), S(3, seed=1)]),
    "subtract": (opsdk.subtract, torch.subtract, [S(2, 1, 3), S(4, 1, seed=1)]),
    "multiply": (opsdk.multiply, torch.multiply, [S(2, 3), S(2, 1, seed=1)]),
    "divide": (opsdk.divide, torch.divide, [S(2, 3), P(3, seed=1)]),
    "pow_scalar": (lambda x: x ** 3, lambda x: x ** 3, [S(2, 3)]),
    "pow_fraction": (lambda x: x ** 2.5, lambda x: x ** 2.5, [P(2, 3)]),
    "pow_tensor": (opsdk.pow, torch.pow, [P(2, 3), S(3, seed=1)]),
    "rpow": (lambda x: 3.0 ** x, lambda x: 3.0 ** x, [S(3)]),
    "neg": (lambda x: -x * x, lambda x: -x * x, [S(3)]),
    "abs": (lambda x: opsdk.abs(x) * x, lambda x: torch.abs(x) * x, [S(2, 3)]),
    "exp": (opsdk.exp, torch.exp, [S(2, 3)]),
    "log": (opsdk.log, torch.log, [P(2, 3)]),
    "sqrt": (opsdk.sqrt, torch.sqrt, [P(2, 3)]),
    "rsqrt": (opsdk.rsqrt, torch.rsqrt, [P(3)]),
    "reciprocal": (opsdk.reciprocal, torch.reciprocal, [P(3)]),
    "square": (opsdk.square, torch.square, [S(3)]),
    "sin": (opsdk.sin, torch.sin, [S(2, 3)]),
    "cos": (opsdk.cos, torch.cos, [S(2, 3)]),
    "tanh": (opsdk.tanh, torch.tanh, [S(2, 3)]),
    "sigmoid": (opsdk.sigmoid, torch.sigmoid, [S(2, 3)]),
    "maximum": (lambda x, y: opsdk.maximum(x, y) ** 2, lambda x, y: torch.maximum(x, y) ** 2,
                [S(2, 3), S(3, seed=1)]),
    "minimum": (lambda x, y: opsdk.minimum(x, y) ** 2, lambda x, y: torch.minimum(x, y) ** 2,
                [S(2, 3), S(2, 1, seed=1)]),
    "clip": (lambda x: opsdk.clip(x, -1.0, 1.0) ** 2, lambda x: torch.clamp(x, -1.0, 1.0) ** 2,
             [S(2, 3)]),
    "where": (lambda x, y: opsdk.where(x > y, x * x, y), lambda x, y: torch.where(x > y, x * x, y),
              [S(2, 3), S(3, seed=1)]),
    "matmul": (opsdk.matmul, torch.matmul, [S(2, 3), S(3, 2, seed=1)]),
    "matmul_batch_broadcast": (opsdk.matmul, torch.matmul, [S(2, 1, 2, 3), S(3, 3, 2, seed=1)]),
    "matmul_vector": (opsdk.matmul, torch.matmul, [S(3), S(2, 3, 2, seed=1)]),
    "sum": (lambda x: opsdk.sum(x, axis=1) ** 2, lambda x: torch.sum(x, dim=1) ** 2, [S(2, 3, 2)]),
    "mean": (lambda x: opsdk.mean(x, axis=[0, 2], keepdim=True) ** 2,
             lambda x: torch.mean(x, dim=[0, 2], keepdim=True) ** 2, [S(2, 3, 2)]),
    "max": (lambda x: opsdk.max(x, axis=-1) ** 2, lambda x: torch.amax(x, dim=-1) ** 2,
            [D(2, 3, 2)]),
    "min": (lambda x: opsdk.min(x) ** 2, lambda x: torch.amin(x) ** 2, [D(2, 3)]),
    "logsumexp": (lambda x: opsdk.logsumexp(x, axis=0), lambda x: torch.logsumexp(x, dim=0),
                  [S(3, 2)]),
    "var": (lambda x: opsdk.var(x, axis=1), lambda x: torch.var(x, dim=1), [S(2, 3)]),
    "std": (lambda x: opsdk.std(x, axis=0), lambda x: torch.std(x, dim=0), [S(3, 2)]),
    "reshape": (lambda x: opsdk.reshape(x, [3, 2]) ** 3, lambda x: torch.reshape(x, (3, 2)) ** 3,
                [S(2, 3)]),
    "transpose": (lambda x: opsdk.transpose(x, [2, 0, 1]) ** 3,
                  lambda x: torch.permute(x, (2, 0, 1)) ** 3, [S(2, 3, 2)]),
    "squeeze_unsqueeze": (lambda x: opsdk.unsqueeze(opsdk.squeeze(x, 1), 0) ** 3,
                          lambda x: torch.unsqueeze(torch.squeeze(x, 1), 0) ** 3, [S(2, 1, 3)]),
    "concat": (lambda x, y: opsdk.concat([x, y * y], axis=1) ** 2,
               lambda x, y: torch.cat([x, y * y], dim=1) ** 2, [S(2, 3), S(2, 1, seed=1)]),
    "stack": (lambda x, y: opsdk.stack([x, y], axis=1) ** 3,
              lambda x, y: torch.stack([x, y], dim=1) ** 3, [S(2, 3), S(2, 3, seed=1)]),
    "split": (lambda x: [p ** (i + 2) for i, p in enumerate(opsdk.split(x, [1, 2], axis=1))],
              lambda x: [p ** (i + 2) for i, p in enumerate(torch.split(x, [1, 2], dim=1))],
              [S(2, 3)]),
    "expand": (lambda x: opsdk.expand(x, [2, 4, 3]) ** 3, lambda x: x.expand(2, 4, 3) ** 3,
               [S(2, 1, 3)]),
    "getitem": (lambda x: x[1:, ::2] ** 3, lambda x: x[1:, ::2] ** 3, [S(3, 4)]),
    "getitem_repeated_rows": (lambda x: x[[0, 2, 0]] ** 3, lambda x: x[[0, 2, 0]] ** 3, [S(3, 2)]),
    "index_select": (lambda x: opsdk.index_select(x, opsdk.to_tensor([2, 0, 2]), axis=1) ** 3,
                     lambda x: torch.index_select(x, 1, torch.tensor([2, 0, 2])) ** 3, [S(2, 3)]),
    "take_along_axis": (
        lambda x: opsdk.take_along_axis(x, opsdk.to_tensor([[0, 2], [1, 1]]), axis=1) ** 3,
        lambda x: torch.take_along_dim(x, torch.tensor([[0, 2], [1, 1]]), dim=1) ** 3,
        [S(2, 3)]),
}


@pytest.mark.parametrize("name", PAIRS)
def test_op_matches_torch_to_second_order_in_float64(name):
    ours, theirs, arrays = PAIRS[name]
    assert_matches_torch(ours, theirs, arrays, label=name)


@pytest.mark.parametrize("name", PAIRS)
def test_op_matches_torch_in_float32(name):
    ours, theirs, arrays = PAIRS[name]
    arrays32 = [a.astype(np.float32) for a in arrays]
    assert_matches_torch(ours, theirs, arrays32, dtype="float32", second_order=False,
                         rtol=2e-5, atol=1e-6, label=name)

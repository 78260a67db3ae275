"""Seed 003, "计算图：反向传播的基石": a two-layer net and the gradient rules of its nodes.

h = relu(x W1 + b1), y = h W2 + b2, L = sum((y - t)^2). The seed's table gives each node's
rule: matmul Z = XW -> dX = dZ W^T, dW = X^T dZ; bias add -> db = sum(dZ, axis 0);
ReLU -> dZ = dA * (Z > 0). This script applies those rules by hand in NumPy and checks that
autograd (nn.Linear, nn.ReLU) gives the same gradients.
"""
import numpy as np

import opsdk as paddle


def manual_gradients(x, t, w1, b1, w2, b2):
    """Backpropagation written out with the seed's per-node rules."""
    z1 = x @ w1 + b1
    h = np.maximum(z1, 0)
    y = h @ w2 + b2
    dy = 2 * (y - t)                  # dL/dy for L = sum((y - t)^2)
    dw2, db2, dh = h.T @ dy, dy.sum(axis=0), dy @ w2.T
    dz1 = dh * (z1 > 0)               # ReLU rule
    dw1, db1 = x.T @ dz1, dz1.sum(axis=0)
    return {"w1": dw1, "b1": db1, "w2": dw2, "b2": db2}


def main(verbose=True):
    paddle.seed(3)
    fc1, act, fc2 = paddle.nn.Linear(4, 5), paddle.nn.ReLU(), paddle.nn.Linear(5, 2)
    x = paddle.randn([6, 4])
    t = paddle.randn([6, 2])
    y = fc2(act(fc1(x)))
    loss = paddle.sum((y - t) ** 2)
    loss.backward()
    auto = {"w1": fc1.weight.grad.numpy(), "b1": fc1.bias.grad.numpy(),
            "w2": fc2.weight.grad.numpy(), "b2": fc2.bias.grad.numpy()}
    manual = manual_gradients(x.numpy(), t.numpy(), fc1.weight.numpy(), fc1.bias.numpy(),
                              fc2.weight.numpy(), fc2.bias.numpy())
    err = {k: float(np.abs(auto[k] - manual[k]).max()) for k in auto}
    if verbose:
        for k in auto:
            print(f"d{k}: max |autograd - hand rule| = {err[k]:.2e}")
    return {"max_error": max(err.values())}


if __name__ == "__main__":
    result = main()
    assert result["max_error"] < 1e-4, result

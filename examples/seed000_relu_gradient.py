"""Seed 000, "算子级梯度注册机制": paddle.nn.ReLU has its gradient registered.

d ReLU(x) / dx = 1 where x > 0 and 0 where x <= 0, so for x = [-2, -0.5, 0, 1.5, 3] the
gradient of sum(ReLU(x)) is [0, 0, 0, 1, 1].
"""
import opsdk as paddle


def main(verbose=True):
    relu = paddle.nn.ReLU()
    x = paddle.to_tensor([-2.0, -0.5, 0.0, 1.5, 3.0], stop_gradient=False)
    y = relu(x)
    y.sum().backward()
    if verbose:
        print("relu(x):", y.numpy())
        print("x.grad :", x.grad.numpy())
    return {"y": y.numpy().tolist(), "grad": x.grad.numpy().tolist()}


if __name__ == "__main__":
    result = main()
    assert result["grad"] == [0.0, 0.0, 0.0, 1.0, 1.0], result

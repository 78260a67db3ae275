"""Seed 001, "使用优化器": minimize (w - 3)^2 with create_parameter and SGD.

w_{k+1} = w_k - 0.1 * 2 (w_k - 3), from w_0 = 0, so after 10 steps w = 3 (1 - 0.8^10) = 2.6778.
"""
import opsdk as paddle


def main(verbose=True):
    w = paddle.create_parameter(
        shape=[1],
        dtype="float32",
        default_initializer=paddle.nn.initializer.Constant(0.0),
    )

    optimizer = paddle.optimizer.SGD(
        learning_rate=0.1,
        parameters=[w],
    )

    for step in range(10):
        loss = (w - 3.0) ** 2

        loss.backward()
        optimizer.step()
        optimizer.clear_grad()

        if verbose:
            print("step:", step, "w:", w.numpy(), "loss:", loss.numpy())
    return {"w": float(w.item()), "loss": float(loss.item())}


if __name__ == "__main__":
    result = main()
    assert abs(result["w"] - 3 * (1 - 0.8 ** 10)) < 1e-5, result

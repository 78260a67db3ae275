"""Seed 001, "线性回归小例子": fit y = x w + b to y = 2x + 1 with SGD (lr 0.01, 100 steps).

After 100 steps the loss has dropped from about 44 to below 0.01, w is near 2 and b (which
learns more slowly) is on its way to 1. Then inference under no_grad.
"""
import opsdk as paddle


def main(verbose=True):
    paddle.seed(2026)

    x = paddle.to_tensor([[1.0], [2.0], [3.0], [4.0]], dtype="float32")
    y_true = paddle.to_tensor([[3.0], [5.0], [7.0], [9.0]], dtype="float32")

    w = paddle.create_parameter(
        shape=[1, 1],
        dtype="float32",
        default_initializer=paddle.nn.initializer.Normal(mean=0.0, std=0.1),
    )
    b = paddle.create_parameter(
        shape=[1],
        dtype="float32",
        default_initializer=paddle.nn.initializer.Constant(0.0),
    )

    optimizer = paddle.optimizer.SGD(
        learning_rate=0.01,
        parameters=[w, b],
    )

    first_loss = None
    for step in range(100):
        y_pred = paddle.matmul(x, w) + b
        loss = paddle.mean((y_pred - y_true) ** 2)

        loss.backward()
        optimizer.step()
        optimizer.clear_grad()

        if first_loss is None:
            first_loss = float(loss.numpy())
        if verbose and step % 20 == 0:
            print(
                "step:", step,
                "loss:", float(loss.numpy()),
                "w:", w.numpy().flatten(),
                "b:", b.numpy().flatten(),
            )

    # inference: no graph is recorded
    with paddle.no_grad():
        y_new = paddle.matmul(paddle.to_tensor([[5.0]]), w) + b
    if verbose:
        print("prediction for x = 5:", float(y_new.item()), "(exact: 11)")
    return {"first_loss": first_loss, "loss": float(loss.item()), "w": float(w.item()),
            "b": float(b.item()), "prediction": float(y_new.item()),
            "prediction_stop_gradient": y_new.stop_gradient}


if __name__ == "__main__":
    result = main()
    assert result["loss"] < 0.01 and result["first_loss"] > 10, result

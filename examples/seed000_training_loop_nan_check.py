"""Seed 000, "即时执行，即时求导": a training loop that checks the loss for NaN at every step.

A small regression model trains normally (no NaN, the loss falls); then one label is replaced
by NaN, and the check stops the loop at that step and shows the gradients. (A NaN in an input
row would not do: ReLU maps NaN to 0, as Paddle's does, so the loss could stay finite.)
"""
import numpy as np

import opsdk as paddle


def train(x, label, steps=100, verbose=True):
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(3, 16), paddle.nn.ReLU(),
                                 paddle.nn.Linear(16, 1))
    criterion = paddle.nn.MSELoss()
    optimizer = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    losses = []
    for i in range(steps):
        pred = model(x)
        loss = criterion(pred, label)
        loss.backward()
        if paddle.isnan(loss):
            if verbose:
                print(f"NaN detected at step {i}")
                print("Gradients:", [p.grad for p in model.parameters()][:1], "...")
            return losses, i
        optimizer.step()
        optimizer.clear_grad()
        losses.append(loss.item())
    return losses, None


def main(verbose=True):
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((32, 3)).astype(np.float32)
    y_np = (x_np @ np.array([[1.0], [-2.0], [0.5]], dtype=np.float32) + 0.3).astype(np.float32)
    x, label = paddle.to_tensor(x_np), paddle.to_tensor(y_np)
    losses, nan_step = train(x, label, verbose=verbose)
    if verbose:
        print(f"clean data: loss {losses[0]:.4f} -> {losses[-1]:.4f}, NaN step: {nan_step}")
    y_np[5] = np.nan
    _, bad_step = train(x, paddle.to_tensor(y_np), verbose=verbose)
    return {"first_loss": losses[0], "last_loss": losses[-1], "clean_nan_step": nan_step,
            "dirty_nan_step": bad_step}


if __name__ == "__main__":
    result = main()
    assert result["clean_nan_step"] is None and result["dirty_nan_step"] == 0, result
    assert result["last_loss"] < 0.1 * result["first_loss"], result

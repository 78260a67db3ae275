"""Seed 000, "混合精度训练加速" (and seed 003's GradScaler loop): auto_cast + GradScaler.

Inside auto_cast the Linear layers compute in float16 and the loss in float32. The scaler
multiplies the loss by 2**16 before backward and divides the gradients back before the step.
A scale so large that the float16 gradients overflow makes the scaler skip the step and halve
the scale; the parameters stay as they were.
"""
import numpy as np

import opsdk as paddle


def amp_step(model, optimizer, scaler, x, label):
    with paddle.amp.auto_cast():
        preds = model(x)
        loss = paddle.nn.functional.cross_entropy(preds, label)
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.clear_grad()
    return preds, loss


def main(verbose=True):
    paddle.seed(3)
    model = paddle.nn.Sequential(paddle.nn.Linear(16, 32), paddle.nn.ReLU(),
                                 paddle.nn.Linear(32, 4))
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    x = paddle.randn([64, 16])
    label = paddle.to_tensor(np.arange(64) % 4)

    scaler = paddle.amp.GradScaler()
    losses = []
    for _ in range(20):
        preds, loss = amp_step(model, optimizer, scaler, x, label)
        losses.append(loss.item())
    if verbose:
        print(f"preds {preds.dtype}, loss {loss.dtype}; loss {losses[0]:.4f} -> "
              f"{losses[-1]:.4f}; scale {scaler.get_loss_scaling()}")

    huge = paddle.amp.GradScaler(init_loss_scaling=2.0 ** 40)
    before = [p.numpy().copy() for p in model.parameters()]
    with np.errstate(invalid="ignore", over="ignore"):
        # the overflow is the point here: inf - inf and 0 * inf make NaN, which numpy reports
        amp_step(model, optimizer, huge, x, label)
    unchanged = all(np.array_equal(b, p.numpy()) for b, p in zip(before, model.parameters()))
    if verbose:
        print(f"scale 2**40 overflows float16: step skipped = {unchanged}, scale now "
              f"{huge.get_loss_scaling()} (2**39)")
    return {"preds_dtype": str(preds.dtype), "loss_dtype": str(loss.dtype),
            "first_loss": losses[0], "last_loss": losses[-1],
            "scale": scaler.get_loss_scaling(), "skipped": unchanged,
            "scale_after_skip": huge.get_loss_scaling()}


if __name__ == "__main__":
    result = main()
    assert result["preds_dtype"] == "paddle.float16" and result["loss_dtype"] == "paddle.float32", result
    assert result["skipped"] and result["scale_after_skip"] == 2.0 ** 39, result

"""Train a small MLP on synthetic data (three interleaved spirals) to >= 95% test accuracy.

Everything the training loop needs comes from opsdk: nn.Sequential/Linear/ReLU, cross_entropy,
Adam with a cosine learning-rate schedule, gradient clipping, no_grad evaluation.

Run: python examples/train_mlp.py
"""
import numpy as np

import opsdk as paddle

TARGET_ACCURACY = 0.95


def spirals(n_per_class, classes=3, noise=0.2, seed=0):
    """Points on `classes` interleaved spiral arms in 2-D, with labels."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for c in range(classes):
        r = np.linspace(0.05, 1.0, n_per_class)
        theta = np.linspace(c * 2 * np.pi / classes, c * 2 * np.pi / classes + 7.0, n_per_class)
        theta = theta + rng.normal(0.0, noise, n_per_class)
        xs.append(np.stack([r * np.sin(theta), r * np.cos(theta)], axis=1))
        ys.append(np.full(n_per_class, c))
    x = np.concatenate(xs).astype(np.float32)
    y = np.concatenate(ys).astype(np.int64)
    order = rng.permutation(len(y))
    return x[order], y[order]


def accuracy(model, x, y):
    with paddle.no_grad():
        pred = paddle.argmax(model(x), axis=-1)
    return float((pred.numpy() == y.numpy()).mean())


def main(steps=300, verbose=True):
    paddle.seed(2026)
    x_np, y_np = spirals(300)
    split = 600
    x_train, y_train = paddle.to_tensor(x_np[:split]), paddle.to_tensor(y_np[:split])
    x_test, y_test = paddle.to_tensor(x_np[split:]), paddle.to_tensor(y_np[split:])

    model = paddle.nn.Sequential(
        paddle.nn.Linear(2, 64), paddle.nn.ReLU(),
        paddle.nn.Linear(64, 64), paddle.nn.ReLU(),
        paddle.nn.Linear(64, 3))
    scheduler = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.02, T_max=steps)
    optimizer = paddle.optimizer.Adam(learning_rate=scheduler, parameters=model.parameters(),
                                      grad_clip=paddle.nn.ClipGradByGlobalNorm(clip_norm=5.0))
    for step in range(steps):
        loss = paddle.nn.functional.cross_entropy(model(x_train), y_train)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        scheduler.step()
        if verbose and step % 100 == 0:
            print(f"step {step:4d}  loss {loss.item():.4f}  lr {optimizer.get_lr():.5f}")
    train_acc = accuracy(model, x_train, y_train)
    test_acc = accuracy(model, x_test, y_test)
    if verbose:
        print(f"train accuracy {train_acc:.3f}  test accuracy {test_acc:.3f} "
              f"(target >= {TARGET_ACCURACY})")
    return {"loss": loss.item(), "train_accuracy": train_acc, "test_accuracy": test_acc}


if __name__ == "__main__":
    result = main()
    assert result["test_accuracy"] >= TARGET_ACCURACY, result

"""Seed 003, "动态计算图": the loss function is chosen per batch by ordinary Python control flow.

Batches whose label is 1 train with cross_entropy on the class logits; the others with
mse_loss on the first logit. Both paths backpropagate into the same model.
"""
import numpy as np

import opsdk as paddle
import opsdk.nn.functional as F


def batches(n=20, seed=0):
    rng = np.random.default_rng(seed)
    for i in range(n):
        data = rng.standard_normal((8, 4)).astype(np.float32)
        label = i % 2
        yield paddle.to_tensor(data), label


def main(verbose=True):
    paddle.seed(0)
    model = paddle.nn.Linear(4, 3)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    used = {"cross_entropy": 0, "mse_loss": 0}
    for data, label in batches():
        output = model(data)
        if label == 1:
            loss = F.cross_entropy(output, paddle.zeros([8], dtype="int64"))
            used["cross_entropy"] += 1
        else:
            loss = F.mse_loss(output[:, :1], paddle.ones([8, 1]))
            used["mse_loss"] += 1
        loss.backward()
        opt.step()
        opt.clear_grad()
    if verbose:
        print("losses used:", used, "last loss:", round(loss.item(), 4))
    return {"used": used, "last_loss": loss.item()}


if __name__ == "__main__":
    result = main()
    assert result["used"] == {"cross_entropy": 10, "mse_loss": 10}, result

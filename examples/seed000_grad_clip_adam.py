"""Seed 000, "梯度爆炸与消失": Adam with ClipGradByGlobalNorm(clip_norm=5.0).

A loss scaled by 1000 gives gradients with a global norm far above 5; the clip scales them
all by 5 / global_norm before Adam uses them, in place as Paddle does (after the step,
param.grad holds the clipped values).
"""
import math

import numpy as np

import opsdk as paddle


def main(verbose=True):
    paddle.seed(7)
    model = paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(),
                                 paddle.nn.Linear(16, 1))
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=5.0)
    opt = paddle.optimizer.Adam(parameters=model.parameters(), grad_clip=clip)

    x = paddle.randn([32, 8])
    loss = 1000.0 * model(x).pow(2).mean()
    loss.backward()
    params = model.parameters()
    raw_norm = math.sqrt(sum(float((p.grad.numpy() ** 2).sum()) for p in params))
    clipped = clip([(p, p.grad) for p in params])
    clipped_norm = math.sqrt(sum(float((g.numpy() ** 2).sum()) for _, g in clipped))
    before = [p.numpy().copy() for p in params]
    opt.step()
    opt.clear_grad()
    # Adam's first step moves each element by about lr (0.001), whatever the gradient scale
    max_move = max(float(np.abs(p.numpy() - b).max()) for p, b in zip(params, before))
    if verbose:
        print(f"global grad norm {raw_norm:.1f} -> clipped to {clipped_norm:.4f}; "
              f"largest parameter move {max_move:.6f}")
    return {"raw_norm": raw_norm, "clipped_norm": clipped_norm, "max_move": max_move}


if __name__ == "__main__":
    result = main()
    assert result["raw_norm"] > 5 and abs(result["clipped_norm"] - 5.0) < 1e-3, result

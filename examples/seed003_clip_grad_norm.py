"""Seed 003, "梯度消失/爆炸" and "监控梯度统计量": clip_grad_norm_ and per-parameter grad stats.

``paddle.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)`` rescales the gradients
in place so their joint L2 norm is 1 (it returns the norm before clipping); the loop over
named_parameters prints each gradient's mean and std, as the seed's debugging snippet does.
"""
import math

import opsdk as paddle


def main(verbose=True):
    paddle.seed(5)
    model = paddle.nn.Sequential(paddle.nn.Linear(6, 12), paddle.nn.Tanh(),
                                 paddle.nn.Linear(12, 1))
    loss = (100.0 * model(paddle.randn([16, 6]))).pow(2).mean()
    loss.backward()
    before = paddle.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    after = math.sqrt(sum(float((p.grad ** 2).sum()) for p in model.parameters()))
    stats = {}
    for name, param in model.named_parameters():
        stats[name] = (float(param.grad.mean()), float(param.grad.std()))
        if verbose:
            print(f"{name}: grad_mean={stats[name][0]:.5f}, grad_std={stats[name][1]:.5f}")
    if verbose:
        print(f"total grad norm {float(before):.2f} -> {after:.4f}")
    return {"norm_before": float(before), "norm_after": after, "stats": stats}


if __name__ == "__main__":
    result = main()
    assert result["norm_before"] > 1 and abs(result["norm_after"] - 1.0) < 1e-3, result

"""Seeds 000 and 003, "检查点机制 / 检查点技术": recompute trades compute for memory.

A 16-block network runs twice: plainly, and with every block wrapped in paddle.recompute, which
keeps only each block's input and recomputes the block's inside during backward. The
gradients are identical; the peak memory (tracemalloc follows NumPy's allocations) is lower.
"""
import tracemalloc

import numpy as np

import opsdk as paddle

BLOCKS, WIDTH, BATCH = 16, 128, 256


def make_blocks():
    paddle.seed(11)
    return [paddle.nn.Sequential(paddle.nn.Linear(WIDTH, WIDTH), paddle.nn.Tanh(),
                                 paddle.nn.Linear(WIDTH, WIDTH), paddle.nn.GELU())
            for _ in range(BLOCKS)]


def run(blocks, x, use_recompute):
    """Forward and backward; returns (gradients, peak bytes allocated during the run)."""
    for blk in blocks:
        blk.clear_gradients(set_to_zero=False)
    tracemalloc.start()
    h = x
    for blk in blocks:
        h = paddle.recompute(blk, h) if use_recompute else blk(h)
    h.mean().backward()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return [p.grad.numpy().copy() for blk in blocks for p in blk.parameters()], peak


def main(verbose=True):
    blocks = make_blocks()
    x = paddle.randn([BATCH, WIDTH])
    x.stop_gradient = False
    plain_grads, plain_peak = run(blocks, x, False)
    ckpt_grads, ckpt_peak = run(blocks, x, True)
    same = all(np.allclose(a, b, rtol=1e-5, atol=1e-7) for a, b in zip(plain_grads, ckpt_grads))
    if verbose:
        print(f"same gradients: {same}; peak memory {plain_peak / 2**20:.1f} MiB -> "
              f"{ckpt_peak / 2**20:.1f} MiB with recompute")
    return {"same_gradients": same, "plain_peak": plain_peak, "recompute_peak": ckpt_peak}


if __name__ == "__main__":
    result = main()
    assert result["same_gradients"] and result["recompute_peak"] < result["plain_peak"], result

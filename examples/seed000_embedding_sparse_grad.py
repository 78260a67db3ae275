"""Seed 000, "稀疏梯度处理": an Embedding's gradient touches only the looked-up rows.

For ids [[1, 3, 5]] and loss = e.sum(), rows 1, 3, 5 of the weight's gradient are all ones
and every other row is zero. With sparse=True the gradient is stored as those rows only, and
an optimizer step changes only them (SGD).
"""
import numpy as np

import opsdk as paddle


def main(verbose=True):
    emb = paddle.nn.Embedding(num_embeddings=10000, embedding_dim=128)
    ids = paddle.to_tensor([[1, 3, 5]])
    e = emb(ids)
    loss = e.sum()
    loss.backward()
    grad = emb.weight.grad.numpy()
    touched = np.flatnonzero(np.abs(grad).sum(axis=1)).tolist()
    if verbose:
        print("rows with a gradient:", touched, "values:", np.unique(grad[touched]).tolist())

    sparse_emb = paddle.nn.Embedding(num_embeddings=10000, embedding_dim=128, sparse=True)
    sparse_emb(ids).sum().backward()
    stored_rows = sparse_emb.weight.grad.rows()
    before = sparse_emb.weight.numpy().copy()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=sparse_emb.parameters())
    opt.step()
    changed = np.flatnonzero(np.abs(sparse_emb.weight.numpy() - before).sum(axis=1)).tolist()
    if verbose:
        print("sparse gradient stores rows:", stored_rows, "; SGD changed rows:", changed)
    return {"touched_rows": touched, "values": np.unique(grad[touched]).tolist(),
            "grad_sum": float(grad.sum()), "sparse_rows": stored_rows, "changed_rows": changed}


if __name__ == "__main__":
    result = main()
    assert result["touched_rows"] == [1, 3, 5] and result["changed_rows"] == [1, 3, 5], result

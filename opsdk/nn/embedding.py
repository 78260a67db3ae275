"""nn.Embedding: a lookup table of num_embeddings vectors of size embedding_dim."""
from ..dtypes import get_default_dtype
from .functional.input import _padding, embedding
from .layer import Layer


class Embedding(Layer):
    """Map integer ids to learned vectors; the weight's gradient touches only looked-up rows.

    Args:
        num_embeddings: the vocabulary size.
        embedding_dim: the vector size.
        padding_idx: an id (negative counts from the end) whose row starts as zeros, is
            output as zeros and never gets a gradient, so it is never updated.
        sparse: leave a row-sparse gradient in weight.grad (a SparseGradTensor: one row per
            looked-up id, as Paddle's SelectedRows) that optimizers apply row by row; False
            leaves a dense gradient (zeros elsewhere).
        weight_attr: ParamAttr or initializer (XavierUniform by default, as Paddle).

    Example:
        >>> emb = opsdk.nn.Embedding(10000, 128)
        >>> emb(opsdk.to_tensor([[1, 3, 5]])).sum().backward()
        >>> emb.weight.grad.numpy()[[1, 3, 5]].sum(), emb.weight.grad.numpy().sum()
        (384.0, 384.0)
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, sparse=False,
                 weight_attr=None, name=None):
        super().__init__()
        self._dtype = get_default_dtype()
        self._num_embeddings = int(num_embeddings)
        self._embedding_dim = int(embedding_dim)
        self._padding_idx = _padding(padding_idx, self._num_embeddings)
        self._sparse = bool(sparse)
        self.weight = self.create_parameter([self._num_embeddings, self._embedding_dim],
                                            attr=weight_attr, is_bias=False)
        if self._padding_idx is not None:
            # as Paddle: the padding vector starts at zero (and never gets a gradient)
            self.weight.array[self._padding_idx] = 0

    def forward(self, x):
        return embedding(x, self.weight, padding_idx=self._padding_idx, sparse=self._sparse)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        return s + (", sparse=True" if self._sparse else "")

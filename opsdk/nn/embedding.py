"""nn.Embedding: a lookup table of num_embeddings vectors of size embedding_dim."""
from ..dtypes import convert_dtype, get_default_dtype
from ..errors import OpArgumentError
from .functional.input import _padding, embedding
from .layer import Layer


class Embedding(Layer):
    """Map integer ids to learned vectors; the weight's gradient touches only looked-up rows.

    Args (Paddle's, in its order; those after norm_type by keyword only):
        num_embeddings: the vocabulary size.
        embedding_dim: the vector size.
        padding_idx: an id (negative counts from the end) whose row starts as zeros, is
            output as zeros and never gets a gradient, so it is never updated.
        max_norm: before each lookup, rows looked up whose ``norm_type``-norm exceeds it are
            scaled down to it, in place (F.embedding_renorm_).
        norm_type: the p of that norm (2.0).
        scale_grad_by_freq: divide each row's gradient by its id's count in the batch.
        sparse: leave a row-sparse gradient in weight.grad (a SparseGradTensor: one row per
            looked-up id, as Paddle's SelectedRows) that optimizers apply row by row; False
            leaves a dense gradient (zeros elsewhere).
        _weight: a tensor of shape [num_embeddings, embedding_dim] to use as the weight.
        _freeze: with _weight (or no weight_attr), the weight's stop_gradient.
        device: accepted; opsdk places the weight with the default device.
        dtype: the weight's dtype (the default float dtype when None).
        weight_attr: ParamAttr or initializer (XavierUniform by default, as Paddle).

    Example:
        >>> emb = opsdk.nn.Embedding(10000, 128)
        >>> emb(opsdk.to_tensor([[1, 3, 5]])).sum().backward()
        >>> emb.weight.grad.numpy()[[1, 3, 5]].sum(), emb.weight.grad.numpy().sum()
        (384.0, 384.0)
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, *, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, device=None, dtype=None, weight_attr=None, name=None):
        super().__init__()
        for arg, value in (("num_embeddings", num_embeddings), ("embedding_dim", embedding_dim)):
            if int(value) <= 0:
                raise OpArgumentError(f"Embedding: {arg} must be greater than 0; got: {value}")
        self._num_embeddings = int(num_embeddings)
        self._embedding_dim = int(embedding_dim)
        self._dtype = convert_dtype(dtype, op="Embedding") if dtype is not None \
            else get_default_dtype()
        pad = _padding(padding_idx, self._num_embeddings)  # checks its range
        self._padding_idx = padding_idx  # as given (-1 stays -1), as Paddle keeps it
        self._max_norm = max_norm
        self._norm_type = norm_type
        self._scale_grad_by_freq = bool(scale_grad_by_freq)
        self._sparse = bool(sparse)
        self._name = name
        shape = [self._num_embeddings, self._embedding_dim]
        if _weight is not None:
            if list(_weight.shape) != shape:
                raise OpArgumentError(f"Embedding: _weight must have the shape {shape}; got: "
                                      f"{list(_weight.shape)}")
            self.weight = _weight
            self.weight.stop_gradient = bool(_freeze)
        else:
            self.weight = self.create_parameter(shape, attr=weight_attr, dtype=self._dtype,
                                                is_bias=False)
            if weight_attr is None:
                self.weight.stop_gradient = bool(_freeze)
        if pad is not None:
            # as Paddle: the padding vector starts at zero (and never gets a gradient)
            self.weight.array[pad] = 0

    # Paddle's public name for the padding id (read and set)
    padding_idx = property(lambda self: self._padding_idx,
                           lambda self, value: setattr(self, "_padding_idx", value))

    def forward(self, x):
        return embedding(x, self.weight, padding_idx=self._padding_idx, max_norm=self._max_norm,
                         norm_type=self._norm_type, sparse=self._sparse,
                         scale_grad_by_freq=self._scale_grad_by_freq)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        return s + (f", name={self._name}" if self._name is not None else "")

"""parameters_to_vector / vector_to_parameters: all parameters as one flat vector and back."""
from ...errors import ShapeError
from ...functional.shape import concat, reshape


def parameters_to_vector(parameters, name=None):
    """The parameters flattened and concatenated into one 1-d Tensor (differentiable)."""
    return concat([reshape(p, [-1]) for p in parameters])


def vector_to_parameters(vec, parameters, name=None):
    """Copy consecutive slices of the 1-d vec into the parameters (in place, no gradient)."""
    params = list(parameters)
    total = sum(p.size for p in params)
    if vec.ndim != 1 or vec.shape[0] != total:
        raise ShapeError(f"vector_to_parameters: expected: a 1-d vector of {total} elements; "
                         f"got: shape {list(vec.shape)}")
    data = vec.numpy()
    start = 0
    for p in params:
        p.set_value(data[start:start + p.size].reshape(p.shape))
        start += p.size

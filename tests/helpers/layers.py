"""Run one layer the same way in opsdk and in real Paddle: the same weights on both sides
(Paddle's, loaded into opsdk's through set_state_dict), eval mode, then compare the outputs
and the gradients of the float inputs and of every parameter."""
import warnings

import numpy as np

import opsdk
from .frameworks import cotangent, import_paddle


def _run(lib, make, arrays, call, dtype, state):
    previous = lib.get_default_dtype()
    lib.set_default_dtype(dtype)
    try:
        layer = make(lib)
    finally:
        lib.set_default_dtype(previous)
    layer.eval()
    keys = list(layer.state_dict())
    if state is not None:
        layer.set_state_dict({k: lib.to_tensor(v) for k, v in state.items()})
    inputs = [lib.to_tensor(a, stop_gradient=a.dtype.kind != "f") for a in arrays]
    outs = call(lib, layer, *inputs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    outs = [o for o in outs if isinstance(o, (lib.Tensor,))]
    sum(((o * lib.to_tensor(cotangent(o.shape, k), dtype=dtype)).sum()
         for k, o in enumerate(outs)), lib.to_tensor(0.0, dtype=dtype)).backward()
    results = [o.numpy() for o in outs]
    results += [t.grad.numpy() for t in inputs if not t.stop_gradient]
    results += [np.zeros(p.shape) if p.grad is None else p.grad.numpy()
                for p in layer.parameters()]
    return keys, {k: v.numpy() for k, v in layer.state_dict().items()}, results


def assert_layer_as_paddle(make, arrays, call=lambda P, layer, *xs: layer(*xs),
                           dtype="float64", rtol=None, atol=None):
    """make(P) builds the layer in framework P (opsdk or paddle), call(P, layer, *inputs) runs
    it; same state_dict keys in the same order, same outputs, same gradients. Returns the
    number of arrays compared."""
    paddle = import_paddle()
    arrays = [np.asarray(a, dtype=dtype) if np.asarray(a).dtype.kind == "f" else np.asarray(a)
              for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        keys, state, want = _run(paddle, make, arrays, call, dtype, None)
    our_keys, _, got = _run(opsdk, make, arrays, call, dtype, state)
    assert our_keys == keys
    assert len(got) == len(want)
    tight = dtype == "float64"
    for k, (a, b) in enumerate(zip(got, want)):
        assert a.dtype == b.dtype and a.shape == b.shape, (k, a.dtype, b.dtype, a.shape, b.shape)
        np.testing.assert_allclose(a, b, rtol=rtol or (1e-9 if tight else 2e-4),
                                   atol=atol or (1e-12 if tight else 2e-5), err_msg=f"array {k}")
    return len(got)

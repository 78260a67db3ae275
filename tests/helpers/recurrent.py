"""Run a recurrent layer (a cell, RNN, BiRNN, SimpleRNN, LSTM, GRU) in opsdk and in Paddle with
the same parameters, inputs and initial states, and compare outputs, final states and the
gradients of inputs, initial states and every parameter."""
import contextlib
import warnings

import numpy as np

import opsdk
from helpers.frameworks import cotangent, import_paddle
from opsdk.nn.rnn_structure import flatten, map_structure


@contextlib.contextmanager
def default_dtype(P, dtype):
    old = P.get_default_dtype()
    P.set_default_dtype(dtype)
    try:
        yield
    finally:
        P.set_default_dtype(old)


def _tensors(P, structure, dtype):
    """The arrays of structure as tensors that take gradients (ints stay ints, no grad)."""
    def make(a):
        a = np.asarray(a)
        if a.dtype.kind in "iu":
            return P.to_tensor(a)
        return P.to_tensor(a.astype(dtype), stop_gradient=False)
    return map_structure(make, structure)


def run(P, make, args, dtype, state=None, call=None):
    """(values, gradients, parameter names, state dict, layer) of make(P)(*args) in framework
    P, dtype the default dtype throughout (a cell's default initial states take it).

    The loss is sum(output_k * fixed cotangent_k) over every float output; gradients are
    those of the float args (None leaves skipped) and of every parameter, in named_parameters
    order (None for a frozen one)."""
    with default_dtype(P, dtype):
        return _run(P, make, args, dtype, state, call)


def _run(P, make, args, dtype, state, call):
    layer = make(P)
    if state is not None:
        missing, _ = layer.set_state_dict({k: P.to_tensor(v) for k, v in state.items()})
        assert not missing, missing
    tensors = [None if a is None else _tensors(P, a, dtype) for a in args]
    out = call(layer, *tensors) if call else layer(*tensors)
    outs = [o for o in flatten(out) if o is not None]
    loss = None
    for k, o in enumerate(outs):
        term = (o * P.to_tensor(cotangent(list(o.shape), k).astype(dtype))).sum()
        loss = term if loss is None else loss + term
    loss.backward()
    leaves = [t for a in tensors if a is not None for t in flatten(a)
              if not t.stop_gradient]
    params = list(layer.named_parameters())
    grads = [t.grad for t in leaves] + [p.grad for _, p in params]
    grads = [None if g is None else g.numpy() for g in grads]
    return ([o.numpy() for o in outs], grads, [n for n, _ in params],
            {k: v.numpy() for k, v in layer.state_dict().items()}, layer)


def assert_layer_matches_paddle(make, args, dtype="float64", rtol=None, atol=None, call=None):
    """make(P) builds the layer in framework P; args are numpy arrays (or nested tuples of
    them, or None) for the call. Paddle's parameters are copied into opsdk's layer."""
    paddle = import_paddle()
    rtol = rtol or (1e-9 if dtype == "float64" else 2e-5)
    atol = atol or (1e-11 if dtype == "float64" else 2e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, want_g, want_names, state, theirs = run(paddle, make, args, dtype, call=call)
    got, got_g, got_names, our_state, ours = run(opsdk, make, args, dtype, state, call=call)
    assert got_names == want_names
    assert list(our_state) == list(state)
    assert len(got) == len(want)
    for k, (a, b) in enumerate(zip(got, want)):
        assert a.shape == b.shape, f"output {k}: {a.shape}, Paddle {b.shape}"
        assert a.dtype == b.dtype, f"output {k}: {a.dtype}, Paddle {b.dtype}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=f"output {k}")
    assert len(got_g) == len(want_g)
    for k, (a, b) in enumerate(zip(got_g, want_g)):
        assert (a is None) == (b is None), f"gradient {k}: one side has none"
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=f"gradient {k}")
    return ours, theirs


def paddle_layer_cases(cases, dtypes=("float64", "float32")):
    """A test, parametrized over ``cases`` ({id: (make, args)}) and dtypes, that each layer
    matches Paddle's (assert_layer_matches_paddle). Assign it to a ``test_*`` name."""
    import pytest

    @pytest.mark.paddle
    @pytest.mark.parametrize("dtype", dtypes)
    @pytest.mark.parametrize("case", cases)
    def test(case, dtype):
        make, args = cases[case]
        assert_layer_matches_paddle(make, args, dtype)
    return test

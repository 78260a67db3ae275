"""PyLayerContext: saved_tensor() as Paddle returns it."""
import pytest

import opsdk


def _read_in_backward(fw, save, read=lambda ctx: ctx.saved_tensor()):
    """What read(ctx) gave in backward, after forward called save(ctx, x)."""
    seen = {}

    class Layer(fw.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            save(ctx, x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["saved"] = read(ctx)
            return g * 2

    x = fw.to_tensor([1.0, 2.0], stop_gradient=False)
    Layer.apply(x).sum().backward()
    return seen["saved"]


SAVES = {"never": lambda ctx, x: None,
         "nothing": lambda ctx, x: ctx.save_for_backward(),
         "x": lambda ctx, x: ctx.save_for_backward(x),
         "x_and_objects": lambda ctx, x: ctx.save_for_backward(x, 3, None)}


def _shape(saved):
    return None if saved is None else (type(saved).__name__, len(saved))


def test_saved_tensor_is_none_when_forward_saved_nothing():
    assert _read_in_backward(opsdk, SAVES["never"]) is None
    assert _read_in_backward(opsdk, SAVES["nothing"]) == ()
    saved = _read_in_backward(opsdk, SAVES["x"])
    assert len(saved) == 1 and saved[0].shape == [2]


def test_saved_tensors_property_stays_a_tuple_for_ported_code():
    assert _read_in_backward(opsdk, SAVES["never"], lambda ctx: ctx.saved_tensors) == ()


def test_saved_tensor_under_saved_tensors_hooks_when_nothing_saved():
    with opsdk.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
        assert _read_in_backward(opsdk, SAVES["never"]) is None
        saved = _read_in_backward(opsdk, SAVES["x"])
    assert len(saved) == 1 and saved[0].shape == [2]


@pytest.mark.paddle
@pytest.mark.parametrize("name", sorted(SAVES))
def test_saved_tensor_as_paddle(name):
    paddle = pytest.importorskip("paddle")
    assert _shape(_read_in_backward(opsdk, SAVES[name])) == \
        _shape(_read_in_backward(paddle, SAVES[name]))

"""The paddle.autograd.py_layer module path and the PyLayerContext names Paddle code calls."""
import opsdk as paddle


def test_py_layer_module_path_holds_pylayer():
    from opsdk.autograd.py_layer import PyLayer, PyLayerContext
    assert PyLayer is paddle.autograd.PyLayer and PyLayerContext is paddle.autograd.PyLayerContext


def test_mark_not_inplace_and_dtype_consistency_are_accepted_by_forward():
    class Both(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            ctx.set_grad_in_dtype_consistent(False)
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return dy * 2

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    Both.apply(x).sum().backward()
    assert x.grad.numpy().tolist() == [2.0, 2.0]


def test_context_records_the_marks():
    ctx = paddle.autograd.PyLayerContext()
    x = paddle.ones([1])
    ctx.mark_not_inplace(x)
    ctx.set_grad_in_dtype_consistent(False)
    assert ctx._not_inplace == (id(x),) and ctx._grad_in_dtype_consistent is False

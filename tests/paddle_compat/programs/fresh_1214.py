"""Fresh differential programs (batch 1214): an op author's autograd code, as someone porting
their own ops would write it: PyLayer custom ops (save_for_backward, several inputs and
outputs, non-tensor arguments, mark_non_differentiable, set_materialize_grads, None
gradients, double backward, a PyLayer inside a Layer), tensor hooks, Layer forward hooks,
paddle.grad's options, gradient accumulation and clearing, detach/clone, the grad-mode
switches, in-place ops on tensors saved for backward, and int/float64/0-d/empty inputs;
written without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

NOT_INPLACE = ("docs/paddle.md, PyLayerContext.mark_not_inplace: the marked input returned comes "
               "back graph-connected in opsdk; Paddle's is a new leaf cut from the graph, so the "
               "gradient through it is lost")
GRAD_DTYPE = ("docs/paddle.md, PyLayer: a float gradient of another precision is cast to the "
              "input's dtype; a leaf's .grad keeps its dtype in opsdk (Paddle's takes the "
              "returned one)")
PYLAYER_CHECKS = ("docs/paddle.md, Errors: opsdk checks more than Paddle (a PyLayer gradient of "
                  "the wrong shape is an error); Paddle stores a gradient of the wrong shape")
OUTPUT_HOOK = ("docs/paddle.md, PyLayer: a gradient a hook on a PyLayer's output returns replaces "
               "the one flowing into backward in opsdk; Paddle calls the hook and drops its result")
NO_INT_GRAD = ("docs/paddle.md, Engine: no gradient flows through integer or bool values in "
               "opsdk; Paddle computes integer gradients and passes them back through a cast")
SET_TO_ZERO = ("docs/paddle.md, Engine: clear_gradient(set_to_zero=False) sets the gradient to "
               "None as Paddle documents; Paddle 3.3.1 ignores set_to_zero passed by keyword")
PYLAYER_SAVED_INPLACE = ("docs/paddle.md, PyLayer: a tensor a PyLayer saved and then written in "
                         "place makes backward raise InplaceModifiedError; Paddle reads the new "
                         "values")
PYLAYER_RETAIN_CRASH = ("docs/paddle.md, Engine: Paddle 3.3.1 dies (a segmentation fault) on a "
                        "second backward(retain_graph) through a PyLayer; opsdk's result is "
                        "PyTorch's")


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _tanh_layer(paddle):
    class CusTanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))
    return CusTanh


def _cube_layer(paddle):
    # backward written in differentiable ops, so it can be differentiated again
    class Cube(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, dy):
            x, = ctx.saved_tensor()
            return dy * 3 * x * x
    return Cube


# ---------------------------------------------------------------- PyLayer


@program(item="fresh")
def f14_pylayer_tanh_save_for_backward(paddle):
    x = _t(paddle, [-1.0, 0.0, 0.5, 2.0])
    y = _tanh_layer(paddle).apply(x)
    y.sum().backward()
    return {"y": y, "grad": x.grad, "y_sg": y.stop_gradient, "y_leaf": y.is_leaf}


@program(item="fresh")
def f14_pylayer_two_inputs_two_outputs(paddle):
    class MulAdd(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b, a + b

        @staticmethod
        def backward(ctx, g_prod, g_sum):
            a, b = ctx.saved_tensor()
            return g_prod * b + g_sum, g_prod * a + g_sum

    a = _t(paddle, [1.0, 2.0, 3.0])
    b = _t(paddle, [4.0, 5.0, 6.0])
    p, s = MulAdd.apply(a, b)
    (p * 2 + s * 3).sum().backward()
    return {"p": p, "s": s, "ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f14_pylayer_non_tensor_arguments(paddle):
    class ScaledPow(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, scale, power=2):
            ctx.save_for_backward(x)
            ctx.scale, ctx.power = scale, power
            return scale * x ** power

        @staticmethod
        def backward(ctx, dy):
            x, = ctx.saved_tensor()
            return dy * ctx.scale * ctx.power * x ** (ctx.power - 1)

    x = _t(paddle, [1.0, 2.0, 3.0])
    y = ScaledPow.apply(x, 0.5, power=3)
    y.sum().backward()
    x2 = _t(paddle, [1.0, -2.0])
    y2 = ScaledPow.apply(x2, 4.0)
    y2.sum().backward()
    return {"y": y, "g": x.grad, "y2": y2, "g2": x2.grad}


@program(item="fresh")
def f14_pylayer_mark_non_differentiable(paddle):
    seen = {}

    class SortWithIndex(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            values = paddle.sort(x)
            idx = paddle.argsort(x)
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            return values, idx

        @staticmethod
        def backward(ctx, g_values, g_idx):
            idx, = ctx.saved_tensor()
            seen["g_idx"] = None if g_idx is None else g_idx.numpy().copy()
            return paddle.scatter(paddle.zeros_like(g_values), idx, g_values)

    x = _t(paddle, [3.0, 1.0, 2.0])
    values, idx = SortWithIndex.apply(x)
    (values * paddle.to_tensor([1.0, 10.0, 100.0], dtype="float64")).sum().backward()
    return {"values": values, "idx": idx, "idx_sg": idx.stop_gradient,
            "values_sg": values.stop_gradient, "grad": x.grad, "g_idx": seen["g_idx"]}


@program(item="fresh")
def f14_pylayer_mark_non_differentiable_float(paddle):
    seen = {}

    class TwoOut(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a = x + x
            b = x * 3
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            seen["ga"] = ga.numpy().copy()
            seen["gb"] = gb.numpy().copy()
            return gb * 3

    x = _t(paddle, [1.0, 2.0])
    a, b = TwoOut.apply(x)
    (a * b).sum().backward()
    return {"a_sg": a.stop_gradient, "b_sg": b.stop_gradient, "grad": x.grad, **seen}


@program(item="fresh")
def f14_pylayer_materialize_grads_default(paddle):
    seen = {}

    class Split(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 5

        @staticmethod
        def backward(ctx, g1, g2):
            seen["g2_none"] = g2 is None
            seen["g2"] = None if g2 is None else g2.numpy().copy()
            return g1 * 2 + g2 * 5

    x = _t(paddle, [1.0, 2.0, 3.0])
    first, _ = Split.apply(x)
    first.sum().backward()
    return {"grad": x.grad, **seen}


@program(item="fresh")
def f14_pylayer_materialize_grads_false(paddle):
    seen = {}

    class Split(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 5

        @staticmethod
        def backward(ctx, g1, g2):
            seen["g1_none"] = g1 is None
            seen["g2_none"] = g2 is None
            out = paddle.zeros_like(g1 if g1 is not None else g2)
            if g1 is not None:
                out = out + g1 * 2
            if g2 is not None:
                out = out + g2 * 5
            return out

    x = _t(paddle, [1.0, 2.0, 3.0])
    first, _ = Split.apply(x)
    first.sum().backward()
    return {"grad": x.grad, **seen}


@program(item="fresh")
def f14_pylayer_return_none_gradient(paddle):
    class OnlyFirst(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    a = _t(paddle, [1.0, 2.0])
    b = _t(paddle, [3.0, 4.0])
    OnlyFirst.apply(a, b).sum().backward()
    return {"ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f14_pylayer_none_for_stop_gradient_input(paddle):
    class Mul(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensor()
            return g * b, None

    a = _t(paddle, [1.0, 2.0])
    b = _t(paddle, [3.0, 4.0], grad=False)
    out = Mul.apply(a, b)
    out.sum().backward()
    return {"out": out, "ga": a.grad, "gb": b.grad}


@program(item="fresh")
def f14_pylayer_too_many_gradients(paddle):
    class Bad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, g * 3

    x = _t(paddle, [1.0, 2.0])

    def go():
        Bad.apply(x).sum().backward()
        return x.grad
    return {"result": attempt(go)}


@program(item="fresh")
def f14_pylayer_too_few_gradients(paddle):
    class Bad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, g):
            return g

    a = _t(paddle, [1.0, 2.0])
    b = _t(paddle, [3.0, 4.0])

    def go():
        Bad.apply(a, b).sum().backward()
        return a.grad
    return {"result": attempt(go)}


@program(item="fresh")
def f14_pylayer_double_backward(paddle):
    Cube = _cube_layer(paddle)
    x = _t(paddle, [1.0, 2.0, -1.5])
    y = Cube.apply(x)
    dx, = paddle.grad(y.sum(), x, create_graph=True)
    ddx, = paddle.grad(dx.sum(), x)
    return {"y": y, "dx": dx, "ddx": ddx, "dx_sg": dx.stop_gradient}


@program(item="fresh")
def f14_pylayer_double_backward_into_grad(paddle):
    Cube = _cube_layer(paddle)
    x = _t(paddle, [0.5, 1.0])
    y = Cube.apply(x)
    dx, = paddle.grad(y.sum(), x, create_graph=True)
    (dx * dx).sum().backward()
    return {"dx": dx, "grad": x.grad}


@program(item="fresh")
def f14_pylayer_inside_layer(paddle):
    Tanh = _tanh_layer(paddle)

    class Block(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter(
                [3], dtype="float64",
                default_initializer=paddle.nn.initializer.Assign(np.array([0.5, -1.0, 2.0])))

        def forward(self, x):
            return Tanh.apply(x * self.w)

    block = Block()
    x = _t(paddle, [1.0, 0.5, 0.25], grad=False)
    out = block(x)
    out.sum().backward()
    return {"out": out, "w_grad": block.w.grad, "x_grad": x.grad,
            "n_params": len(block.parameters())}


@program(item="fresh")
def f14_pylayer_int_input_no_grad(paddle):
    class Double(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = paddle.to_tensor([1, 2, 3], dtype="int64")
    y = Double.apply(x)
    return {"y": y, "dtype": str(y.dtype).split(".")[-1], "sg": y.stop_gradient}


@program(item="fresh")
def f14_pylayer_all_inputs_stop_gradient(paddle):
    calls = []

    class Square(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            return g * 2

    x = _t(paddle, [1.0, 2.0], grad=False)
    y = Square.apply(x)
    err = attempt(lambda: y.sum().backward())
    return {"y": y, "sg": y.stop_gradient, "calls": len(calls), "err": err}


@program(item="fresh")
def f14_pylayer_saved_tensor_without_save(paddle):
    seen = {}

    class Plain(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x + 1

        @staticmethod
        def backward(ctx, g):
            seen["saved"] = ctx.saved_tensor()
            return g

    x = _t(paddle, [1.0])
    Plain.apply(x).sum().backward()
    return {"saved_is_none": seen["saved"] is None, "grad": x.grad}


@program(item="fresh")
def f14_pylayer_save_input_and_output(paddle):
    class Exp(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            out = paddle.exp(x) * y
            ctx.save_for_backward(x, y, out)
            return out

        @staticmethod
        def backward(ctx, g):
            x, y, out = ctx.saved_tensor()
            return g * out, g * paddle.exp(x)

    x = _t(paddle, [0.0, 1.0])
    y = _t(paddle, [2.0, 3.0])
    out = Exp.apply(x, y)
    out.sum().backward()
    return {"out": out, "gx": x.grad, "gy": y.grad}


@program(item="fresh")
def f14_pylayer_zero_dim(paddle):
    Tanh = _tanh_layer(paddle)
    x = paddle.to_tensor(0.75, dtype="float64", stop_gradient=False)
    y = Tanh.apply(x)
    y.backward()
    return {"y": y, "shape": y.shape, "grad": x.grad}


@program(item="fresh")
def f14_pylayer_empty_input(paddle):
    Tanh = _tanh_layer(paddle)
    x = paddle.zeros([0, 3], dtype="float32")
    x.stop_gradient = False
    y = Tanh.apply(x)
    y.sum().backward()
    return {"y_shape": y.shape, "grad": x.grad}


@program(item="fresh")
def f14_pylayer_ctx_python_objects(paddle):
    class Gather(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, index_list):
            ctx.index_list = list(index_list)
            ctx.n = x.shape[0]
            return paddle.gather(x, paddle.to_tensor(index_list))

        @staticmethod
        def backward(ctx, g):
            out = np.zeros([ctx.n], dtype="float64")
            for i, v in zip(ctx.index_list, g.numpy()):
                out[i] += v
            return paddle.to_tensor(out)

    x = _t(paddle, [10.0, 20.0, 30.0, 40.0])
    y = Gather.apply(x, [3, 1, 3])
    (y * _t(paddle, [1.0, 2.0, 3.0], grad=False)).sum().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f14_pylayer_applied_twice_accumulates(paddle):
    Cube = _cube_layer(paddle)
    x = _t(paddle, [1.0, 2.0])
    (Cube.apply(x) + Cube.apply(x * 2)).sum().backward()
    return {"grad": x.grad}


@program(item="fresh", differs=([""], PYLAYER_RETAIN_CRASH), isolate=True)
def f14_pylayer_backward_call_count_retain(paddle):
    calls = []

    class Id(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            calls.append(g.numpy().copy())
            return g

    x = _t(paddle, [1.0, 2.0])
    loss = (Id.apply(x) * 3).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    return {"calls": len(calls), "first_g": calls[0], "grad": x.grad}


@program(item="fresh", differs=(["y", "y_leaf", "grad", "x_leaf"], NOT_INPLACE))
def f14_pylayer_mark_not_inplace_identity(paddle):
    class Ident(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 4

    x = _t(paddle, [1.0, 2.0])
    y = Ident.apply(x)
    (y * 2).sum().backward()
    return {"y": y, "grad": x.grad, "x_leaf": x.is_leaf, "y_leaf": y.is_leaf}


@program(item="fresh", differs=(["result.grad.dtype", "result.dtype"], GRAD_DTYPE))
def f14_pylayer_grad_dtype_mismatch(paddle):
    class Cast(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return paddle.cast(g * 2, "float64")

    x = _t(paddle, [1.0, 2.0], dtype="float32")

    def go():
        Cast.apply(x).sum().backward()
        return {"grad": x.grad, "dtype": str(x.grad.dtype).split(".")[-1]}
    return {"result": attempt(go)}


@program(item="fresh", differs=(["result"], PYLAYER_CHECKS))
def f14_pylayer_grad_shape_mismatch(paddle):
    class BadShape(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return g  # should be expanded to x's shape

    x = _t(paddle, [1.0, 2.0, 3.0])

    def go():
        BadShape.apply(x).backward()
        return x.grad
    return {"result": attempt(go)}


@program(item="fresh", differs=(["grad"], OUTPUT_HOOK))
def f14_pylayer_hook_on_output(paddle):
    Tanh = _tanh_layer(paddle)
    x = _t(paddle, [0.0, 1.0])
    y = Tanh.apply(x)
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    return {"grad": x.grad}


@program(item="fresh")
def f14_pylayer_with_paddle_grad(paddle):
    Tanh = _tanh_layer(paddle)
    x = _t(paddle, [0.25, -0.5])
    y = Tanh.apply(x)
    g, = paddle.grad(y, x, grad_outputs=_t(paddle, [2.0, 3.0], grad=False))
    return {"g": g, "x_grad": x.grad}


@program(item="fresh")
def f14_pylayer_grad_mode_inside_forward(paddle):
    seen = {}

    class Probe(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen["fwd_enabled"] = paddle.is_grad_enabled()
            tmp = x * 2
            seen["tmp_sg"] = tmp.stop_gradient
            return tmp

        @staticmethod
        def backward(ctx, g):
            seen["bwd_enabled"] = paddle.is_grad_enabled()
            return g * 2

    x = _t(paddle, [1.0])
    y = Probe.apply(x)
    y.sum().backward()
    return {"y_sg": y.stop_gradient, "grad": x.grad, **seen}


@program(item="fresh")
def f14_pylayer_forward_raises(paddle):
    class Checked(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            if x.shape[-1] != 2:
                raise ValueError("expects last dim 2")
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = _t(paddle, [1.0, 2.0, 3.0])
    ok = Checked.apply(_t(paddle, [1.0, 2.0]))
    return {"err": attempt(Checked.apply, x), "ok": ok}


@program(item="fresh")
def f14_pylayer_backward_raises(paddle):
    class Fails(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise NotImplementedError("no backward for this op")

    x = _t(paddle, [1.0, 2.0])
    y = Fails.apply(x)
    return {"err": attempt(lambda: y.sum().backward()), "y": y}


@program(item="fresh")
def f14_pylayer_output_used_twice(paddle):
    Tanh = _tanh_layer(paddle)
    x = _t(paddle, [0.3, -0.7])
    y = Tanh.apply(x)
    (y * y + y).sum().backward()
    return {"grad": x.grad}


@program(item="fresh")
def f14_pylayer_chain_two_custom_ops(paddle):
    Tanh = _tanh_layer(paddle)
    Cube = _cube_layer(paddle)
    x = _t(paddle, [[0.1, 0.2], [0.3, 0.4]])
    y = Cube.apply(Tanh.apply(x))
    y.mean().backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f14_pylayer_broadcast_inputs(paddle):
    class BAdd(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.shapes = (a.shape, b.shape)
            return a + b

        @staticmethod
        def backward(ctx, g):
            sa, sb = ctx.shapes
            return g.sum(axis=1, keepdim=True).reshape(sa), g.sum(axis=0).reshape(sb)

    a = _t(paddle, [[1.0], [2.0]])
    b = _t(paddle, [10.0, 20.0, 30.0])
    out = BAdd.apply(a, b)
    (out * _t(paddle, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], grad=False)).sum().backward()
    return {"out": out, "ga": a.grad, "gb": b.grad}


# ---------------------------------------------------------------- tensor hooks


@program(item="fresh")
def f14_hook_leaf_doubles_grad(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    x.register_hook(lambda g: g * 2)
    (x * x).sum().backward()
    return {"grad": x.grad}


@program(item="fresh")
def f14_hook_observe_only(paddle):
    seen = []
    x = _t(paddle, [1.0, 2.0])

    def hook(g):
        seen.append(g.numpy().copy())

    x.register_hook(hook)
    (x * 3).sum().backward()
    return {"grad": x.grad, "seen": seen}


@program(item="fresh")
def f14_hook_non_leaf_modifies_upstream(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * x
    y.register_hook(lambda g: g * 3)
    (y * 2).sum().backward()
    return {"x_grad": x.grad, "y_grad": y.grad}


@program(item="fresh")
def f14_hook_non_leaf_with_retain_grads(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 5
    y.retain_grads()
    y.register_hook(lambda g: g + 1)
    y.sum().backward()
    return {"x_grad": x.grad, "y_grad": y.grad}


@program(item="fresh")
def f14_hook_remove(paddle):
    x = _t(paddle, [1.0, 2.0])
    h = x.register_hook(lambda g: g * 100)
    (x * 2).sum().backward()
    first = x.grad.numpy().copy()
    removed = h.remove()
    x.clear_grad()
    (x * 2).sum().backward()
    return {"first": first, "second": x.grad, "removed": removed}


@program(item="fresh")
def f14_hook_two_hooks_order(paddle):
    x = _t(paddle, [1.0, 2.0])
    x.register_hook(lambda g: g + 1)
    x.register_hook(lambda g: g * 10)
    (x * 2).sum().backward()
    return {"grad": x.grad}


@program(item="fresh")
def f14_hook_on_stop_gradient_tensor(paddle):
    x = _t(paddle, [1.0, 2.0], grad=False)
    return {"err": attempt(x.register_hook, lambda g: g)}


@program(item="fresh")
def f14_hook_with_paddle_grad(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * x
    y.register_hook(lambda g: g * 0.5)
    g, = paddle.grad(y.sum(), x)
    return {"g": g}


@program(item="fresh")
def f14_hook_called_per_backward(paddle):
    count = []
    x = _t(paddle, [3.0])

    def hook(g):
        count.append(float(g.numpy()[0]))
        return g

    x.register_hook(hook)
    (x * 2).sum().backward()
    (x * 4).sum().backward()
    return {"count": count, "grad": x.grad}


@program(item="fresh")
def f14_hook_returns_wrong_shape(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * 2
    y.register_hook(lambda g: g[:2])

    def go():
        y.sum().backward()
        return x.grad
    return {"result": attempt(go)}


@program(item="fresh")
def f14_hook_on_shared_input(paddle):
    x = _t(paddle, [1.0, 2.0])
    seen = []

    def hook(g):
        seen.append(g.numpy().copy())
        return g * 2

    x.register_hook(hook)
    (x * 3 + x * x).sum().backward()
    return {"grad": x.grad, "n_calls": len(seen), "seen": seen[0]}


@program(item="fresh")
def f14_hook_gradient_clip_per_tensor(paddle):
    w = _t(paddle, [1.0, -2.0, 3.0])
    w.register_hook(lambda g: paddle.clip(g, -1.0, 1.0))
    (w * _t(paddle, [5.0, -0.5, -7.0], grad=False)).sum().backward()
    return {"grad": w.grad}


@program(item="fresh")
def f14_hook_on_parameter(paddle):
    lin = paddle.nn.Linear(2, 1, bias_attr=False)
    lin.weight.set_value(np.array([[1.0], [2.0]], dtype="float32"))
    lin.weight.register_hook(lambda g: g * 0)
    x = paddle.to_tensor([[1.0, 1.0]])
    lin(x).sum().backward()
    return {"w_grad": lin.weight.grad}


# ---------------------------------------------------------------- Layer hooks


@program(item="fresh")
def f14_layer_pre_hook_modifies_input(paddle):
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.eye(2, dtype="float32"))
    lin.bias.set_value(np.zeros([2], dtype="float32"))

    def pre(layer, inputs):
        return (inputs[0] * 2,)

    lin.register_forward_pre_hook(pre)
    out = lin(paddle.to_tensor([[1.0, 3.0]]))
    return {"out": out}


@program(item="fresh")
def f14_layer_post_hook_modifies_output(paddle):
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(np.array([[1.0], [1.0]], dtype="float32"))
    lin.bias.set_value(np.array([0.5], dtype="float32"))
    lin.register_forward_post_hook(lambda layer, inputs, output: output * 3)
    out = lin(paddle.to_tensor([[1.0, 2.0]]))
    out.sum().backward()
    return {"out": out, "w_grad": lin.weight.grad, "b_grad": lin.bias.grad}


@program(item="fresh")
def f14_layer_hook_remove(paddle):
    lin = paddle.nn.Linear(1, 1)
    lin.weight.set_value(np.array([[2.0]], dtype="float32"))
    lin.bias.set_value(np.array([0.0], dtype="float32"))
    h = lin.register_forward_post_hook(lambda layer, inputs, output: output + 100)
    x = paddle.to_tensor([[1.0]])
    with_hook = lin(x)
    h.remove()
    without = lin(x)
    return {"with_hook": with_hook, "without": without}


@program(item="fresh")
def f14_layer_hooks_observe(paddle):
    log = []
    seq = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))
    for i, sub in enumerate(seq):
        sub.register_forward_pre_hook(
            lambda layer, inputs, i=i: log.append(("pre", i, list(inputs[0].shape))))
        sub.register_forward_post_hook(
            lambda layer, inputs, output, i=i: log.append(("post", i, list(output.shape))))
    out = seq(paddle.ones([5, 3]))
    return {"log": log, "shape": out.shape}


@program(item="fresh")
def f14_layer_pre_hook_non_tuple_return(paddle):
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.eye(2, dtype="float32"))
    lin.bias.set_value(np.zeros([2], dtype="float32"))
    lin.register_forward_pre_hook(lambda layer, inputs: inputs[0] + 1)
    out = attempt(lin, paddle.to_tensor([[1.0, 3.0]]))
    return {"out": out}


# ---------------------------------------------------------------- paddle.grad


@program(item="fresh")
def f14_grad_second_order(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x ** 3
    dx, = paddle.grad(y.sum(), x, create_graph=True)
    ddx, = paddle.grad(dx.sum(), x)
    return {"dx": dx, "ddx": ddx, "dx_sg": dx.stop_gradient, "ddx_sg": ddx.stop_gradient}


@program(item="fresh")
def f14_grad_without_create_graph_is_constant(paddle):
    x = _t(paddle, [2.0])
    y = x * x
    dx, = paddle.grad(y, x, retain_graph=True)
    z = y + dx
    z.backward()
    return {"dx": dx, "dx_sg": dx.stop_gradient, "grad": x.grad}


@program(item="fresh")
def f14_grad_twice_without_retain(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (x * x).sum()
    first, = paddle.grad(y, x)
    second = attempt(paddle.grad, y, x)
    return {"first": first, "second": second}


@program(item="fresh")
def f14_grad_allow_unused(paddle):
    x = _t(paddle, [1.0])
    z = _t(paddle, [5.0])
    y = x * 2
    refused = attempt(paddle.grad, y, [x, z], retain_graph=True)
    gx, gz = paddle.grad(y, [x, z], allow_unused=True)
    return {"refused": refused, "gx": gx, "gz_none": gz is None}


@program(item="fresh")
def f14_grad_no_grad_vars(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 3
    z = (y * x).sum()
    g, = paddle.grad(z, x, no_grad_vars=[y])
    x2 = _t(paddle, [1.0, 2.0])
    y2 = x2 * 3
    g_all, = paddle.grad((y2 * x2).sum(), x2)
    return {"g": g, "g_all": g_all}


@program(item="fresh")
def f14_grad_grad_outputs(paddle):
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = x * x
    g, = paddle.grad(y, x, grad_outputs=_t(paddle, [[1.0, 0.0], [0.5, 2.0]], grad=False))
    return {"g": g}


@program(item="fresh")
def f14_grad_non_scalar_default_ones(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x
    g, = paddle.grad(y, x)
    return {"g": g}


@program(item="fresh")
def f14_grad_lists(paddle):
    a = _t(paddle, [1.0, 2.0])
    b = _t(paddle, [3.0])
    y1 = (a * b).sum()
    y2 = (a * a).sum()
    ga, gb = paddle.grad([y1, y2], [a, b])
    return {"ga": ga, "gb": gb}


@program(item="fresh")
def f14_grad_leaves_dot_grad_empty(paddle):
    x = _t(paddle, [1.0, 2.0])
    g, = paddle.grad((x * x).sum(), x)
    return {"g": g, "x_grad_none": x.grad is None}


@program(item="fresh")
def f14_grad_stop_gradient_input(paddle):
    x = _t(paddle, [1.0, 2.0])
    c = _t(paddle, [3.0, 4.0], grad=False)
    y = (x * c).sum()
    return {"err": attempt(paddle.grad, y, c)}


@program(item="fresh")
def f14_grad_grad_outputs_wrong_length(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    return {"err": attempt(paddle.grad, [y], [x],
                           grad_outputs=[_t(paddle, [1.0, 1.0]), _t(paddle, [1.0, 1.0])])}


@program(item="fresh", differs=(["err"], NO_INT_GRAD))
def f14_grad_int_output(paddle):
    x = _t(paddle, [1.5, 2.5])
    y = paddle.cast(x, "int64")
    return {"y_sg": y.stop_gradient, "err": attempt(paddle.grad, y.sum(), x)}


@program(item="fresh")
def f14_grad_third_order(paddle):
    x = _t(paddle, [0.5])
    y = paddle.sin(x) * x
    d1, = paddle.grad(y, x, create_graph=True)
    d2, = paddle.grad(d1, x, create_graph=True)
    d3, = paddle.grad(d2, x)
    return {"d1": d1, "d2": d2, "d3": d3}


# ---------------------------------------------------------------- accumulation and clearing


@program(item="fresh")
def f14_accumulate_three_backwards(paddle):
    w = _t(paddle, [1.0, -1.0])
    grads = []
    for k in (1.0, 2.0, 3.0):
        (w * k).sum().backward()
        grads.append(w.grad.numpy().copy())
    return {"grads": grads}


@program(item="fresh")
def f14_clear_grad_then_backward(paddle):
    w = _t(paddle, [2.0])
    (w * w).sum().backward()
    w.clear_grad()
    after_clear = w.grad
    (w * 3).sum().backward()
    return {"after_clear": after_clear, "grad": w.grad}


@program(item="fresh", differs=(["cleared_none"], SET_TO_ZERO))
def f14_clear_gradient_set_to_zero_false(paddle):
    w = _t(paddle, [2.0, 3.0])
    (w * w).sum().backward()
    w.clear_gradient(set_to_zero=False)
    cleared_none = w.grad is None
    (w * 3).sum().backward()
    return {"cleared_none": cleared_none, "grad": w.grad}


@program(item="fresh")
def f14_layer_clear_gradients(paddle):
    lin = paddle.nn.Linear(2, 1)
    lin(paddle.ones([3, 2])).sum().backward()
    before = lin.bias.grad.numpy().copy()
    lin.clear_gradients()
    after = lin.bias.grad
    return {"before": before, "after": after}


@program(item="fresh")
def f14_backward_twice_without_retain(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (paddle.exp(x)).sum()
    y.backward()
    err = attempt(y.backward)
    return {"grad": x.grad, "err": err}


@program(item="fresh")
def f14_backward_retain_graph_accumulates(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    return {"grad": x.grad}


@program(item="fresh")
def f14_accumulation_micro_batches(paddle):
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(np.array([[0.5], [-0.5]], dtype="float32"))
    lin.bias.set_value(np.array([0.1], dtype="float32"))
    data = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    for i in range(0, 4, 2):
        (lin(data[i:i + 2]) ** 2).mean().backward()
    acc_w = lin.weight.grad.numpy().copy()
    lin.clear_gradients()
    (lin(data) ** 2).mean().backward()
    return {"acc_w": acc_w, "full_w": lin.weight.grad}


# ---------------------------------------------------------------- detach, clone, stop_gradient


@program(item="fresh")
def f14_detach_shares_memory(paddle):
    x = _t(paddle, [1.0, 2.0])
    d = x.detach()
    with paddle.no_grad():
        d[0] = 10.0
    return {"x": x, "d": d, "d_sg": d.stop_gradient}


@program(item="fresh")
def f14_clone_gradient_flows(paddle):
    x = _t(paddle, [1.0, 2.0])
    c = x.clone()
    (c * c).sum().backward()
    return {"c_sg": c.stop_gradient, "c_leaf": c.is_leaf, "grad": x.grad}


@program(item="fresh")
def f14_detach_then_require_grad(paddle):
    x = _t(paddle, [1.0, 2.0])
    d = x.detach()
    d.stop_gradient = False
    (d * x).sum().backward()
    return {"x_grad": x.grad, "d_grad": d.grad, "d_leaf": d.is_leaf}


@program(item="fresh")
def f14_stop_gradient_flip_intermediate(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    y.stop_gradient = True
    z = y * x
    z.sum().backward()
    return {"x_grad": x.grad, "z_sg": z.stop_gradient}


@program(item="fresh")
def f14_stop_gradient_flip_leaf_late(paddle):
    x = _t(paddle, [1.0, 2.0], grad=False)
    y = x * 2
    x.stop_gradient = False
    z = x * 3
    err = attempt(lambda: y.sum().backward())
    z.sum().backward()
    return {"y_sg": y.stop_gradient, "err": err, "x_grad": x.grad}


@program(item="fresh")
def f14_detach_in_middle_of_chain(paddle):
    x = _t(paddle, [1.0, 3.0])
    y = x * x
    z = y.detach() * x + y
    z.sum().backward()
    return {"grad": x.grad}


# ---------------------------------------------------------------- grad modes


@program(item="fresh")
def f14_no_grad_context(paddle):
    x = _t(paddle, [1.0, 2.0])
    with paddle.no_grad():
        y = x * 2
        inside = paddle.is_grad_enabled()
    z = x * 2
    return {"y_sg": y.stop_gradient, "z_sg": z.stop_gradient, "inside": inside,
            "after": paddle.is_grad_enabled()}


@program(item="fresh")
def f14_no_grad_decorator(paddle):
    @paddle.no_grad()
    def infer(t):
        return t * t, paddle.is_grad_enabled()

    x = _t(paddle, [3.0])
    y, enabled = infer(x)
    return {"y": y, "y_sg": y.stop_gradient, "enabled": enabled}


@program(item="fresh")
def f14_enable_grad_inside_no_grad(paddle):
    x = _t(paddle, [3.0])
    with paddle.no_grad():
        a = x * 2
        with paddle.enable_grad():
            b = x * 2
        c = x * 2
    b.sum().backward()
    return {"a_sg": a.stop_gradient, "b_sg": b.stop_gradient, "c_sg": c.stop_gradient,
            "grad": x.grad}


@program(item="fresh")
def f14_enable_grad_decorator(paddle):
    @paddle.enable_grad()
    def f(t):
        return t * 4

    x = _t(paddle, [1.0])
    with paddle.no_grad():
        y = f(x)
    y.sum().backward()
    return {"y_sg": y.stop_gradient, "grad": x.grad}


@program(item="fresh")
def f14_set_grad_enabled_context(paddle):
    x = _t(paddle, [1.0])
    with paddle.set_grad_enabled(False):
        a = x * 2
        off = paddle.is_grad_enabled()
        with paddle.set_grad_enabled(True):
            b = x * 2
    return {"a_sg": a.stop_gradient, "b_sg": b.stop_gradient, "off": off,
            "after": paddle.is_grad_enabled()}


@program(item="fresh")
def f14_set_grad_enabled_as_call(paddle):
    x = _t(paddle, [1.0])
    paddle.set_grad_enabled(False)
    try:
        a = x * 2
        off = paddle.is_grad_enabled()
    finally:
        paddle.set_grad_enabled(True)
    b = x * 2
    return {"a_sg": a.stop_gradient, "b_sg": b.stop_gradient, "off": off,
            "on": paddle.is_grad_enabled()}


@program(item="fresh")
def f14_no_grad_exception_restores(paddle):
    def boom():
        with paddle.no_grad():
            raise KeyError("inside")
    err = attempt(boom)
    return {"err": err, "enabled": paddle.is_grad_enabled()}


@program(item="fresh")
def f14_no_grad_backward_inside(paddle):
    x = _t(paddle, [2.0])
    y = x * x
    with paddle.no_grad():
        y.backward()
    return {"grad": x.grad}


# ---------------------------------------------------------------- in-place on saved tensors


@program(item="fresh")
def f14_inplace_on_exp_output(paddle):
    x = _t(paddle, [0.0, 1.0])
    y = paddle.exp(x)
    y.add_(paddle.ones_like(y))
    return {"y": y, "err": attempt(lambda: y.sum().backward())}


@program(item="fresh")
def f14_inplace_on_mul_input(paddle):
    x = _t(paddle, [1.0, 2.0])
    a = x * 1
    b = a * a
    a.scale_(3.0)
    return {"err": attempt(lambda: b.sum().backward()), "a": a}


@program(item="fresh")
def f14_inplace_on_unsaved_tensor_ok(paddle):
    x = _t(paddle, [1.0, 2.0])
    a = x * 2
    b = a + 1
    a.scale_(5.0)
    b.sum().backward()
    return {"a": a, "b": b, "grad": x.grad}


@program(item="fresh")
def f14_inplace_on_leaf_requiring_grad(paddle):
    x = _t(paddle, [1.0, 2.0])
    return {"err": attempt(x.add_, paddle.ones([2], dtype="float64")), "x": x}


@program(item="fresh", differs=(["err"], PYLAYER_SAVED_INPLACE))
def f14_inplace_in_pylayer_input(paddle):
    Tanh = _tanh_layer(paddle)
    x = _t(paddle, [0.5])
    y = Tanh.apply(x * 1)
    y2 = y * 1
    y.scale_(2.0)
    return {"err": attempt(lambda: y2.sum().backward()), "y": y}


@program(item="fresh")
def f14_inplace_relu_then_backward(paddle):
    x = _t(paddle, [-1.0, 2.0])
    y = x * 3
    paddle.nn.functional.relu_(y)
    y.sum().backward()
    return {"y": y, "grad": x.grad}


# ---------------------------------------------------------------- dtypes and shapes


@program(item="fresh", differs=(["grad_none"], NO_INT_GRAD))
def f14_int_tensor_requires_grad(paddle):
    x = paddle.to_tensor([1, 2, 3], dtype="int64", stop_gradient=False)
    y = x * 2
    err = attempt(lambda: y.sum().backward())
    return {"x_sg": x.stop_gradient, "y_sg": y.stop_gradient, "err": err,
            "grad_none": x.grad is None}


@program(item="fresh")
def f14_float64_grad_dtype(paddle):
    x = _t(paddle, [1.0, 2.0])
    w = _t(paddle, [0.5, 0.25], dtype="float32")
    out = (x * paddle.cast(w, "float64")).sum()
    out.backward()
    return {"gx": x.grad, "gw": w.grad, "gx_dtype": str(x.grad.dtype).split(".")[-1],
            "gw_dtype": str(w.grad.dtype).split(".")[-1]}


@program(item="fresh")
def f14_empty_backward(paddle):
    x = paddle.zeros([0, 3], dtype="float64")
    x.stop_gradient = False
    y = (x * 2).sum()
    y.backward()
    return {"y": y, "grad": x.grad}


@program(item="fresh")
def f14_zero_dim_backward_chain(paddle):
    x = paddle.to_tensor(3.0, stop_gradient=False)
    y = x * x + paddle.log(x)
    y.backward()
    return {"y": y, "grad": x.grad, "shape": x.grad.shape}


@program(item="fresh")
def f14_backward_non_scalar(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * x
    y.backward()
    x2 = _t(paddle, [1.0, 2.0])
    y2 = x2 * x2
    y2.backward(_t(paddle, [3.0, 0.5], grad=False))
    return {"grad": x.grad, "grad2": x2.grad}


@program(item="fresh")
def f14_backward_grad_tensor_wrong_shape(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * x
    return {"err": attempt(y.backward, _t(paddle, [1.0, 1.0, 1.0], grad=False))}


@program(item="fresh")
def f14_bool_tensor_grad(paddle):
    x = _t(paddle, [1.0, -2.0])
    mask = x > 0
    y = paddle.where(mask, x * 2, x * 3)
    y.sum().backward()
    return {"mask_sg": mask.stop_gradient, "mask_dtype": str(mask.dtype).split(".")[-1],
            "grad": x.grad}

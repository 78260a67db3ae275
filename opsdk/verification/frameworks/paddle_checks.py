"""Paddle checks on an exported op: forward and gradients against opsdk, a numeric
directional derivative of the Paddle op itself, and Paddle's forward mode (incubate jvp)
against its reverse mode."""
import numpy as np

from .outcome import Recorder, float64_cases, opsdk_reference

_EPS = 1e-6


def _tensors(paddle, arrays):
    out = []
    for a in arrays:
        if a is None:
            out.append(None)
            continue
        t = paddle.to_tensor(a.copy())
        t.stop_gradient = a.dtype.kind != "f"
        out.append(t)
    return out


def verify_paddle(info):
    """Every Paddle check on every float64 sample of the op: a list of Outcome."""
    import paddle

    from ...interop.paddle import op as paddle_op

    fn = paddle_op(info.qualname)
    exported = fn.exported
    record = Recorder(info.qualname, "paddle")

    def first_output(tensors, attrs):
        out = fn(*tensors, **attrs)
        return out[0] if isinstance(out, (tuple, list)) else out

    for index, arrays, attrs in float64_cases(exported):
        rng = np.random.default_rng(index)
        want, _ = opsdk_reference(exported, arrays, attrs)
        weights = rng.standard_normal(want[0].shape)

        def loss(tensors, attrs=attrs, weights=weights):
            return (first_output(tensors, attrs) * paddle.to_tensor(weights)).sum()

        def forward(arrays=arrays, attrs=attrs, want=want):
            got = fn(*_tensors(paddle, arrays), **attrs)
            got = got if isinstance(got, (tuple, list)) else (got,)
            for g, w in zip(got, want):
                np.testing.assert_allclose(g.numpy(), w, rtol=1e-12, atol=1e-12)

        def gradients(order, arrays=arrays, attrs=attrs, weights=weights):
            tensors = _tensors(paddle, arrays)
            floats = [t for t in tensors if t is not None and not t.stop_gradient]
            grads = paddle.grad(loss(tensors), floats, create_graph=order > 1, allow_unused=True)
            if order > 1:
                total = sum((g * g).sum() for g in grads if g is not None)
                grads = paddle.grad(total, floats, allow_unused=True)
            _, expected = opsdk_reference(exported, arrays, attrs, weights, order)
            for g, e in zip(grads, expected):
                if e is None:
                    assert g is None or not np.any(g.numpy()), "paddle gives a gradient opsdk has not"
                    continue
                np.testing.assert_allclose(g.numpy(), e, rtol=1e-10, atol=1e-12)

        def numeric(arrays=arrays, index=index):
            tensors = _tensors(paddle, arrays)
            floats = [i for i, t in enumerate(tensors) if t is not None and not t.stop_gradient]
            grads = paddle.grad(loss(tensors), [tensors[i] for i in floats], allow_unused=True)
            direction = [np.random.default_rng(index + 7).standard_normal(arrays[i].shape)
                         for i in floats]
            analytic = sum(float((g.numpy() * d).sum()) for g, d in zip(grads, direction)
                           if g is not None)
            moved = []
            for sign in (1.0, -1.0):
                shifted = list(arrays)
                for i, d in zip(floats, direction):
                    shifted[i] = arrays[i] + sign * _EPS * d
                moved.append(float(loss(_tensors(paddle, shifted)).numpy()))
            numeric_value = (moved[0] - moved[1]) / (2 * _EPS)
            np.testing.assert_allclose(analytic, numeric_value, rtol=1e-5, atol=1e-7)

        def jvp(arrays=arrays, attrs=attrs, weights=weights, index=index):
            # Paddle's forward mode (its double-vjp construction) against its reverse mode:
            # <w, J v> = <Jᵀw, v>
            tensors = _tensors(paddle, arrays)
            floats = [i for i, t in enumerate(tensors) if t is not None and not t.stop_gradient]
            direction = [np.random.default_rng(index + 11).standard_normal(arrays[i].shape)
                         for i in floats]

            def of_floats(*xs):
                full = list(tensors)
                for i, x in zip(floats, xs):
                    full[i] = x
                return first_output(full, attrs)

            xs = [tensors[i] for i in floats]
            _, jv = paddle.incubate.autograd.jvp(of_floats, xs, [paddle.to_tensor(d)
                                                                 for d in direction])
            grads = paddle.grad(loss(tensors), xs, allow_unused=True)
            forward_side = float((jv.numpy() * weights).sum())
            reverse_side = sum(float((g.numpy() * d).sum()) for g, d in zip(grads, direction)
                               if g is not None)
            np.testing.assert_allclose(forward_side, reverse_side, rtol=1e-10, atol=1e-12)

        record("forward", index, forward)
        record("gradients", index, lambda: gradients(1))
        if info.double_backward:
            record("second order", index, lambda: gradients(2))
            if index == 0:  # Paddle's jvp needs second order (see docs/interop.md)
                record("jvp", index, jvp)
        record("numeric gradient", index, numeric)
    return record.outcomes

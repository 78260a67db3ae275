"""opsdk ops as torch custom ops: opcheck, gradcheck, compile, torch.func, DDP."""
import numpy as np
import pytest

import opsdk

from .pack import FIRST_PARTY

torch = pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = pytest.mark.torch

from opsdk.interop.verify import render, verify  # noqa: E402


@pytest.mark.parametrize("name", FIRST_PARTY + ("interoptest.masked_scale",))
def test_op_passes_opcheck_gradcheck_and_gradgradcheck(name):
    outcomes = verify("torch", [opsdk.ops.get(name)])
    checks = {o.check for o in outcomes}
    assert {"opcheck:test_schema", "opcheck:test_autograd_registration", "opcheck:test_faketensor",
            "opcheck:test_aot_dispatch_dynamic", "gradcheck", "gradgradcheck"} <= checks
    assert all(o.passed for o in outcomes), render(outcomes, quiet=True)


def test_op_is_registered_as_torch_ops_pack_op():
    swish = opsdk.interop.torch.op("example.swish")
    assert isinstance(swish, torch._library.custom_ops.CustomOpDef)
    assert torch.ops.example.swish.default is swish._opoverload
    assert swish.opsdk_op is opsdk.ops.get("example.swish")
    assert opsdk.interop.torch.op("swish") is swish


def test_forward_and_gradient_equal_the_same_maths_in_torch():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.randn(6, dtype=torch.float64, requires_grad=True)
    ref = x.detach().clone().requires_grad_()
    swish(x, beta=1.5).sum().backward()
    (ref * torch.sigmoid(1.5 * ref)).sum().backward()
    torch.testing.assert_close(x.grad, ref.grad)


def test_integer_and_bool_arguments_and_an_int64_output():
    f = opsdk.interop.torch.op("interoptest.masked_scale")
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    mask = torch.rand(3, 4) > 0.5
    y, count = f(x, mask, scale=3.0)
    assert count.dtype == torch.int64 and int(count) == int(mask.sum())
    assert not count.requires_grad and y.requires_grad
    y.sum().backward()
    torch.testing.assert_close(x.grad, 2 * x.detach() * torch.where(mask, 3.0, 1.0).double())


def test_non_contiguous_input_is_made_contiguous_and_gives_the_same_result():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.randn(4, 6, dtype=torch.float64).t()
    assert not x.is_contiguous()
    torch.testing.assert_close(swish(x, beta=1.0), swish(x.contiguous(), beta=1.0))


def test_outputs_never_alias_inputs():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.randn(5, dtype=torch.float64)
    y = swish(x, beta=1.0)
    assert y.data_ptr() != x.data_ptr()


def test_binding_errors_name_the_op():
    from opsdk.errors import InteropError

    swish = opsdk.interop.torch.op("example.swish")
    with pytest.raises(InteropError, match="example.swish: unexpected keyword argument 'gamma'"):
        swish(torch.ones(2), gamma=1.0)
    with pytest.raises(InteropError, match="argument 'x' must be a tensor"):
        swish([1.0, 2.0])


def _model(x, w, labels):
    swish = opsdk.interop.torch.op("example.swish")
    ln = opsdk.interop.torch.op("nn.layer_norm")
    ce = opsdk.interop.torch.op("nn.cross_entropy")
    return ce(ln(swish(x @ w, beta=1.5), None, None, normalized_shape=[w.shape[1]]), labels)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_torch_compile_gives_eager_loss_and_gradients(backend):
    if backend == "inductor":
        pytest.importorskip("torch._inductor")
    x = torch.randn(8, 5, dtype=torch.float64)
    w = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    labels = torch.randint(0, 4, (8,))
    loss = _model(x, w, labels)
    (grad,) = torch.autograd.grad(loss, w)
    compiled = torch.compile(_model, backend=backend, fullgraph=True)
    loss_c = compiled(x, w, labels)
    (grad_c,) = torch.autograd.grad(loss_c, w)
    torch.testing.assert_close(loss_c, loss)
    torch.testing.assert_close(grad_c, grad)


def test_torch_func_grad_vmap_and_jacrev_of_jacrev():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.randn(3, 4, dtype=torch.float64)

    def ref(t):
        return t * torch.sigmoid(1.5 * t)

    torch.testing.assert_close(torch.vmap(lambda t: swish(t, beta=1.5))(x), ref(x))
    torch.testing.assert_close(torch.func.grad(lambda t: swish(t, beta=1.5).sum())(x),
                               torch.func.grad(lambda t: ref(t).sum())(x))
    hess = torch.func.jacrev(torch.func.jacrev(lambda t: swish(t, beta=1.5).sum()))(x[0])
    torch.testing.assert_close(hess, torch.func.hessian(lambda t: ref(t).sum())(x[0]))


def test_third_order_gradient_matches_torch():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    t = x.detach().clone().requires_grad_()

    def third(f, v):
        (g,) = torch.autograd.grad(f(v).sum(), v, create_graph=True)
        (g2,) = torch.autograd.grad(g.sum(), v, create_graph=True)
        return torch.autograd.grad(g2.sum(), v)[0]

    torch.testing.assert_close(third(lambda v: swish(v, beta=1.5), x),
                               third(lambda v: v * torch.sigmoid(1.5 * v), t))


def test_float32_runs_the_c_kernel_and_matches_float64():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.linspace(-3, 3, 1000, dtype=torch.float64)
    np.testing.assert_allclose(swish(x.float(), beta=1.5).numpy(), swish(x, beta=1.5).numpy(),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_ddp_example_equals_a_single_process_run():
    from .examples import run_example

    assert "max parameter difference" in run_example("ddp_torch").stdout

"""opsdk ops as torch custom ops: opcheck, gradcheck, compile, torch.func, DDP."""
import numpy as np
import pytest

import opsdk

from .pack import per_op

torch = pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = pytest.mark.torch

from opsdk.verification.frameworks import render, verify  # noqa: E402


@pytest.mark.parametrize("name", per_op())
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


def test_plain_eager_call_and_torch_ops_dispatcher_give_the_same_values_and_gradients():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.randn(7, dtype=torch.float64, requires_grad=True)
    g = torch.randn(7, dtype=torch.float64)
    (eager,) = torch.autograd.grad(swish(x, beta=0.5), x, g)
    (dispatched,) = torch.autograd.grad(torch.ops.example.swish(x, beta=0.5), x, g)
    torch.testing.assert_close(eager, dispatched, rtol=0, atol=0)
    torch.testing.assert_close(swish(x), torch.ops.example.swish(x))  # the default beta


def test_an_input_modified_in_place_after_forward_is_an_error_at_backward():
    swish = opsdk.interop.torch.op("example.swish")
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    t = x * 1.0
    y = swish(t, beta=1.5)
    with torch.no_grad():
        t.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_a_tensor_given_for_an_attribute_is_an_error_naming_it():
    from opsdk.errors import InteropError

    swish = opsdk.interop.torch.op("example.swish")
    with pytest.raises(InteropError, match="attribute 'beta' must be a float, not a tensor"):
        swish(torch.ones(2), beta=torch.tensor(1.0))


def test_a_lone_number_for_a_list_attribute_works_with_every_tensor_given():
    f = opsdk.interop.torch.op("interoptest.masked_scale")
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    mask = torch.rand(3, 4) > 0.5
    offset = torch.randn(5, dtype=torch.float64, requires_grad=True)
    y, _ = f(x, mask, offset, scale=0.5, idx=3)
    want, _ = f(x, mask, offset, scale=0.5, idx=[3])
    torch.testing.assert_close(y, want)
    y.sum().backward()
    assert offset.grad[3] == 12 and offset.grad.sum() == 12


def test_a_parameter_input_gets_its_gradient():
    swish = opsdk.interop.torch.op("example.swish")
    w = torch.nn.Parameter(torch.randn(4, dtype=torch.float64))
    swish(w, beta=1.5).sum().backward()
    ref = w.detach().clone().requires_grad_()
    (ref * torch.sigmoid(1.5 * ref)).sum().backward()
    torch.testing.assert_close(w.grad, ref.grad)


def _model(x, w, labels):
    swish = opsdk.interop.torch.op("example.swish")
    ln = opsdk.interop.torch.op("nn.layer_norm")
    ce = opsdk.interop.torch.op("nn.cross_entropy")
    return ce(ln(swish(x @ w, beta=1.5), None, None, normalized_shape=[w.shape[1]]), labels)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_torch_compile_gives_eager_loss_and_gradients(backend):
    if backend == "inductor":
        pytest.importorskip("torch._inductor", reason="this torch build has no inductor (torch._inductor); "
                            "the aot_eager case runs")
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

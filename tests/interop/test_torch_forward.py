"""Forward mode of exported ops in PyTorch: torch.func.jvp, jacfwd, hessian and vmap of them,
through an op's double backward (example.swish) and through an op's own jvp (a kernel op)."""
import pytest

import opsdk

torch = pytest.importorskip("torch", reason="the torch interop needs PyTorch")
pytestmark = pytest.mark.torch


def _swish():
    return opsdk.interop.torch.op("example.swish")


def _ref(t):
    return t * torch.sigmoid(1.5 * t)


@pytest.mark.slow  # the first torch.func transform of the op defines its custom ops (seconds)
def test_jvp_and_jacfwd_equal_the_native_maths():
    swish, x, v = _swish(), torch.randn(5, dtype=torch.float64), torch.randn(5, dtype=torch.float64)
    out, jv = torch.func.jvp(lambda t: swish(t, beta=1.5), (x,), (v,))
    torch.testing.assert_close(jv, torch.func.jvp(_ref, (x,), (v,))[1], rtol=1e-12, atol=1e-14)
    torch.testing.assert_close(torch.func.jacfwd(lambda t: swish(t, beta=1.5))(x),
                               torch.func.jacfwd(_ref)(x), rtol=1e-12, atol=1e-14)


def test_hessian_of_a_loss_equals_the_native_one_to_float64_precision():
    swish, w = _swish(), torch.randn(3, 4, dtype=torch.float64)

    def loss(f):
        return lambda t: (f(t @ w) ** 2).sum()

    x = torch.randn(3, dtype=torch.float64)
    torch.testing.assert_close(torch.func.hessian(loss(lambda a: swish(a, beta=1.5)))(x),
                               torch.func.hessian(loss(_ref))(x), rtol=1e-12, atol=1e-13)


def test_vmap_of_hessian_and_of_jvp():
    swish, xs = _swish(), torch.randn(2, 3, dtype=torch.float64)
    hess = torch.vmap(torch.func.hessian(lambda t: swish(t, beta=1.5).sum()))
    torch.testing.assert_close(hess(xs), torch.vmap(torch.func.hessian(lambda t: _ref(t).sum()))(xs))
    jv = torch.vmap(lambda a, b: torch.func.jvp(lambda t: swish(t, beta=1.5), (a,), (b,))[1])
    torch.testing.assert_close(jv(xs, xs), torch.vmap(
        lambda a, b: torch.func.jvp(_ref, (a,), (b,))[1])(xs, xs))


def test_a_kernel_ops_own_jvp_gives_jvp_and_jacfwd():
    cube = opsdk.interop.torch.op("interoptest.kernel_cube")
    x, v = torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
    _, jv = torch.func.jvp(lambda t: cube(t, scale=2.0), (x,), (v,))
    torch.testing.assert_close(jv, 6.0 * x ** 2 * v)
    torch.testing.assert_close(torch.func.jacfwd(lambda t: cube(t, scale=2.0))(x),
                               torch.diag(6.0 * x ** 2))


@pytest.mark.parametrize("order", ["jacfwd(jacfwd)", "jacrev(jacfwd)", "jacfwd(jacrev(jacfwd))",
                                   "vmap(jacfwd(jacfwd))"])
def test_derivatives_of_forward_mode_equal_the_native_maths(order):
    # the tangent is itself a Function whose tangent and backward are the next derivatives
    swish, F = _swish(), torch.func
    make = {"jacfwd(jacfwd)": lambda f: F.jacfwd(F.jacfwd(f)),
            "jacrev(jacfwd)": lambda f: F.jacrev(F.jacfwd(f)),
            "jacfwd(jacrev(jacfwd))": lambda f: F.jacfwd(F.jacrev(F.jacfwd(f))),
            "vmap(jacfwd(jacfwd))": lambda f: torch.vmap(F.jacfwd(F.jacfwd(f)))}[order]
    x = torch.randn(*((2, 3) if order.startswith("vmap") else (3,)), dtype=torch.float64)
    torch.testing.assert_close(make(lambda t: swish(t, beta=1.5))(x), make(_ref)(x),
                               rtol=1e-12, atol=1e-14)


def test_forward_over_forward_of_a_two_input_op_with_int_and_bool_arguments():
    masked = opsdk.interop.torch.op("interoptest.masked_scale")
    mask = torch.tensor([True, False, True])
    x, offset = torch.randn(3, dtype=torch.float64), torch.randn(5, dtype=torch.float64)

    def ref(a, o):
        return a * a * torch.where(mask, 0.5, 1.0).to(a) + o[[1, 3]].sum()

    def ours(a, o):
        return masked(a, mask, o, scale=0.5, idx=[1, 3])[0]

    for outer in (torch.func.jacfwd, torch.func.jacrev):
        got = outer(torch.func.jacfwd(ours, argnums=(0, 1)), argnums=(0, 1))(x, offset)
        want = outer(torch.func.jacfwd(ref, argnums=(0, 1)), argnums=(0, 1))(x, offset)
        for g, w in zip(got, want):
            for a, b in zip(g, w):
                torch.testing.assert_close(a, b, rtol=1e-12, atol=1e-14)


def test_forward_over_forward_of_a_first_order_jvp_is_refused_naming_the_op():
    # kernel_cube's jvp and backward are raw kernels: its second derivative is unknown
    from opsdk.errors import DoubleBackwardError
    cube = opsdk.interop.torch.op("interoptest.kernel_cube")
    with pytest.raises(DoubleBackwardError, match="'KernelCube' has a first-order jvp"):
        torch.func.jacfwd(torch.func.jacfwd(lambda t: cube(t, scale=2.0)))(
            torch.randn(4, dtype=torch.float64))


def test_the_dispatcher_op_itself_has_forward_mode_never_zero_tangents():
    # torch.ops.<pack>.<op> runs torch's own Autograd kernel for custom ops, which has no
    # forward-mode rule (zero tangents, no error); the exported op replaces it with its own
    _swish()
    dispatched = torch.ops.example.swish
    x, v = torch.randn(5, dtype=torch.float64), torch.randn(5, dtype=torch.float64)
    _, jv = torch.func.jvp(lambda t: dispatched(t, beta=1.5), (x,), (v,))
    torch.testing.assert_close(jv, torch.func.jvp(_ref, (x,), (v,))[1], rtol=1e-12, atol=1e-14)
    torch.testing.assert_close(torch.func.hessian(lambda t: dispatched(t, beta=1.5).sum())(x),
                               torch.func.hessian(lambda t: _ref(t).sum())(x))
    xs = torch.randn(2, 3, dtype=torch.float64)
    torch.testing.assert_close(torch.vmap(torch.func.jacfwd(lambda t: dispatched(t, beta=1.5)))(xs),
                               torch.vmap(torch.func.jacfwd(_ref))(xs))


def test_the_dispatcher_op_under_forward_ad_dual_tensors():
    from torch.autograd import forward_ad
    _swish()
    x, v = torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
    with forward_ad.dual_level():
        out = torch.ops.example.swish(forward_ad.make_dual(x, v), beta=1.5)
        tangent = forward_ad.unpack_dual(out).tangent
    torch.testing.assert_close(tangent, torch.func.jvp(_ref, (x,), (v,))[1])


@pytest.mark.parametrize("outer", ["jacfwd", "jacrev"])
def test_the_dispatcher_op_refuses_a_derivative_of_forward_mode_naming_the_op(outer):
    from opsdk.errors import InteropError
    _swish()
    transform = getattr(torch.func, outer)
    # there the innermost transform is already unwrapped: the op's tangent could not carry
    # the outer derivative (silent zeros); the TorchOp computes it (above)
    with pytest.raises(InteropError, match="a derivative of forward mode through "
                                           r"torch.ops.example.swish \(opsdk op 'example.swish'\)"):
        transform(torch.func.jacfwd(lambda t: torch.ops.example.swish(t, beta=1.5)))(
            torch.randn(3, dtype=torch.float64))


def test_the_dispatcher_op_under_grad_of_grad_and_jacrev_of_jacrev():
    _swish()
    x = torch.randn(3, dtype=torch.float64)

    def twice(f):
        return torch.func.grad(lambda t: torch.func.grad(lambda u: f(u).sum())(t).sum())(x)

    torch.testing.assert_close(twice(lambda u: torch.ops.example.swish(u, beta=1.5)), twice(_ref))
    torch.testing.assert_close(
        torch.func.jacrev(torch.func.jacrev(lambda t: torch.ops.example.swish(t, beta=1.5)))(x),
        torch.func.jacrev(torch.func.jacrev(_ref))(x))


def test_the_dispatcher_ops_eager_backward_is_unchanged_by_forward_mode():
    _swish()
    x = torch.randn(6, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(torch.ops.example.swish(x, beta=1.5).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    xr = x.detach().requires_grad_()
    (rg,) = torch.autograd.grad(_ref(xr).sum(), xr, create_graph=True)
    torch.testing.assert_close(g, rg)
    torch.testing.assert_close(gg, torch.autograd.grad(rg.sum(), xr)[0])


def _compiled(fn, **options):
    torch._dynamo.reset()  # each test compiles afresh: no graph cached by another test
    return torch.compile(fn, backend="aot_eager", **options)


def test_jvp_inside_torch_compile_gives_the_native_tangents_not_zeros():
    # torch traces a custom op without its forward-mode rule (zero tangents, no error): the
    # op runs that call eagerly instead
    swish, x, v = _swish(), torch.randn(5, dtype=torch.float64), torch.randn(5, dtype=torch.float64)
    jvp = _compiled(lambda a, b: torch.func.jvp(lambda t: swish(t, beta=1.5), (a,), (b,))[1])
    torch.testing.assert_close(jvp(x, v), torch.func.jvp(_ref, (x,), (v,))[1])


@pytest.mark.slow  # each transform compiles a graph of its own (seconds)
@pytest.mark.parametrize("transform", ["jacfwd", "grad", "hessian"])
def test_transforms_inside_torch_compile_equal_the_native_maths(transform):
    swish, x = _swish(), torch.randn(4, dtype=torch.float64)
    make = {"jacfwd": lambda f: torch.func.jacfwd(f),
            "grad": lambda f: torch.func.grad(lambda t: f(t).sum()),
            "hessian": lambda f: torch.func.hessian(lambda t: (f(t) ** 2).sum())}[transform]
    got = _compiled(make(lambda t: swish(t, beta=1.5)))(x)
    torch.testing.assert_close(got, make(_ref)(x), rtol=1e-12, atol=1e-13)


@pytest.mark.slow  # compiles (seconds)
def test_fullgraph_compile_of_a_transform_is_refused_naming_the_op():
    swish, x = _swish(), torch.randn(3, dtype=torch.float64)
    jvp = _compiled(lambda a: torch.func.jvp(lambda t: swish(t, beta=1.5), (a,), (a,))[1],
                    fullgraph=True)
    with pytest.raises(Exception, match="opsdk op example.swish"):
        jvp(x)


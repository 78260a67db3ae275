"""Fresh differential programs (batch 1210): Paddle's autograd in depth, as the seed articles and
Paddle 3.3.1's documentation teach it: paddle.grad and its options, higher-order gradients
through maths functions, gradients of linalg functions against known formulas, hooks,
retain_grads, stop_gradient and detach, grad modes, PyLayer, jacobian/hessian and the incubate
functional API, backward with grad tensors, accumulation, and the errors users meet; written
without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

NO_HIGHER_ORDER = ("docs/paddle.md, Engine: every op differentiates to every order; Paddle 3.3.1 "
                   "has no kernel past some order (erf, det, p_norm, 2.0 ** x at the first; sqrt, "
                   "softplus at the second; sin, sigmoid, x ** p at the third) and raises "
                   "RuntimeError")
QR_R_ONLY_CRASH = ("docs/paddle.md, Engine: Paddle 3.3.1's CPU qr backward dies (a segmentation "
                   "fault) when only R carries a gradient; opsdk's gradient equals PyTorch's")
GRAD_SHAPE = ("docs/paddle.md, Errors: a gradient of another shape (beyond dims of size 1) is a "
              "BackwardError; Paddle runs on and returns gradients of a wrong shape")
JVP_POW = ("docs/paddle.md, Values at special points: Paddle's pow double-grad kernel raises "
           "'DX can not be nullptr' when asked for the gradient with respect to another input "
           "only, as incubate.autograd.jvp's double-vjp construction asks")


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.array(values, dtype=dtype), stop_gradient=not grad)


def _spd(n, shift=0.0):
    a = (np.arange(n * n, dtype="float64").reshape(n, n) % 5 + 1.0) / 4.0 + shift
    return a @ a.T + n * np.eye(n)


def _orders(paddle, f, x, n=3):
    """The gradients of sum(f(x)), then of the sum of each gradient, up to order n; an order
    Paddle cannot build is observed as what it raised, and ends the list."""
    out = []
    cur = f(x)
    for _ in range(n):
        g = attempt(lambda c=cur: paddle.grad(paddle.sum(c), x, create_graph=True,
                                               allow_unused=True)[0])
        out.append(g)
        if g is None or not hasattr(g, "shape"):
            break
        cur = g
    return out


# ---------------------------------------------------------------- paddle.grad options


@program(item="fresh")
def f10_grad_seed_second_order_cube(paddle):
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x ** 3
    dy = paddle.grad(outputs=y, inputs=x, create_graph=True)[0]
    d2 = paddle.grad(outputs=dy, inputs=x, retain_graph=True)[0]
    return {"dy": dy, "d2": d2, "dy_sg": dy.stop_gradient, "d2_sg": d2.stop_gradient}


@program(item="fresh")
def f10_grad_allow_unused(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = _t(paddle, [3.0, 4.0])
    y = paddle.sum(x * x)
    refused = attempt(paddle.grad, y, [x, z], retain_graph=True)
    gx, gz = paddle.grad(y, [x, z], allow_unused=True)
    return {"refused": refused, "gx": gx, "gz_none": gz is None}


@program(item="fresh")
def f10_grad_outputs_weighting(paddle):
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = x * x
    v = _t(paddle, [[1.0, 0.0], [0.5, -1.0]], grad=False)
    g = paddle.grad(y, x, grad_outputs=v)[0]
    x2 = _t(paddle, [1.0, 2.0, 3.0])
    a, b = x2 * 2.0, x2 ** 2
    ga = paddle.grad([a, b], x2, grad_outputs=[None, _t(paddle, [1.0, 1.0, 2.0], grad=False)])[0]
    return {"g": g, "ga": ga}


@program(item="fresh")
def f10_grad_no_grad_vars(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    h = x * x
    y = paddle.sum(h * x)
    g_full = paddle.grad(y, x, retain_graph=True)[0]
    g_cut = paddle.grad(y, x, no_grad_vars=[h])[0]
    return {"g_full": g_full, "g_cut": g_cut}


@program(item="fresh")
def f10_grad_retain_graph_false_then_again(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = paddle.sum(paddle.exp(x) * x)
    g1 = paddle.grad(y, x, retain_graph=True)[0]
    g2 = paddle.grad(y, x)[0]
    third = attempt(paddle.grad, y, x)
    return {"g1": g1, "g2": g2, "third": third}


@program(item="fresh")
def f10_grad_does_not_touch_dot_grad(paddle):
    x = _t(paddle, [1.0, -2.0])
    y = paddle.sum(x ** 3)
    g = paddle.grad(y, x, retain_graph=True)[0]
    before = x.grad
    y.backward()
    return {"g": g, "before_none": before is None, "after": x.grad}


@program(item="fresh")
def f10_grad_create_graph_result_flags(paddle):
    x = _t(paddle, [0.5, 1.5])
    y = paddle.sum(paddle.sin(x) * x)
    g = paddle.grad(y, x, create_graph=True)[0]
    x2 = _t(paddle, [0.5, 1.5])
    g2 = paddle.grad(paddle.sum(paddle.sin(x2) * x2), x2)[0]
    return {"g": g, "g_sg": g.stop_gradient, "g_leaf": g.is_leaf, "g2": g2,
            "g2_sg": g2.stop_gradient}


@program(item="fresh")
def f10_grad_of_input_itself_and_zero_d(paddle):
    x = paddle.to_tensor(3.0, stop_gradient=False)
    y = x * x
    g = paddle.grad(y, x)[0]
    x2 = _t(paddle, [1.0, 2.0])
    ident = attempt(lambda: paddle.grad(x2, x2)[0])
    return {"g": g, "shape": g.shape, "ident": ident}


@program(item="fresh")
def f10_grad_several_outputs_summed(paddle):
    x = _t(paddle, [1.0, 2.0])
    w = _t(paddle, [0.5, -0.5])
    y1 = paddle.sum(x * w)
    y2 = paddle.sum(x * x)
    gx, gw = paddle.grad([y1, y2], [x, w])
    return {"gx": gx, "gw": gw}


@program(item="fresh")
def f10_grad_int_input_refused(paddle):
    x = paddle.to_tensor([1, 2, 3], dtype="int64")
    flag = x.stop_gradient
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    err = attempt(paddle.grad, paddle.sum(y * 2), x)
    return {"flag": flag, "err": err}


@program(item="fresh")
def f10_grad_of_stop_gradient_output(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = paddle.sum(x * 3).detach()
    err = attempt(paddle.grad, y, x)
    z = _t(paddle, [1.0, 2.0], grad=False)
    err2 = attempt(lambda: paddle.sum(z * 2).backward())
    return {"err": err, "err2": err2, "zgrad": z.grad}


# ---------------------------------------------------------------- higher order through maths


@program(item="fresh", differs=(["sin"], NO_HIGHER_ORDER), rtol=1e-6, atol=1e-8)
def f10_third_order_exp_log_sin(paddle):
    x = _t(paddle, [0.3, 1.2, 2.0])
    return {"exp": _orders(paddle, paddle.exp, x), "log": _orders(paddle, paddle.log, x),
            "sin": _orders(paddle, paddle.sin, x)}


@program(item="fresh", differs=(["sigmoid"], NO_HIGHER_ORDER), rtol=1e-6, atol=1e-8)
def f10_third_order_tanh_sigmoid(paddle):
    x = _t(paddle, [-1.0, 0.0, 0.7])
    return {"tanh": _orders(paddle, paddle.tanh, x),
            "sigmoid": _orders(paddle, paddle.nn.functional.sigmoid, x)}


@program(item="fresh", differs=(["pow", "sqrt", "rpow"], NO_HIGHER_ORDER), rtol=1e-6, atol=1e-8)
def f10_second_order_pow_sqrt(paddle):
    x = _t(paddle, [0.5, 2.0, 4.0])
    return {"pow": _orders(paddle, lambda t: paddle.pow(t, 2.5), x),
            "sqrt": _orders(paddle, paddle.sqrt, x),
            "rpow": _orders(paddle, lambda t: 2.0 ** t, x, 2)}


@program(item="fresh", differs=(["softplus", "erf"], NO_HIGHER_ORDER), rtol=1e-6, atol=1e-8)
def f10_second_order_softplus_erf(paddle):
    x = _t(paddle, [-0.5, 0.0, 1.5])
    sp = _orders(paddle, paddle.nn.functional.softplus, x, 2)
    erf = attempt(_orders, paddle, paddle.erf, x, 2)
    return {"softplus": sp, "erf": erf}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_second_order_matmul_mixed(paddle):
    a = _t(paddle, [[1.0, 2.0], [0.0, -1.0]])
    b = _t(paddle, [[0.5, 1.0], [2.0, 1.0]])
    y = paddle.sum(paddle.matmul(a, b) ** 2)
    ga = paddle.grad(y, a, create_graph=True)[0]
    gb_of_ga = paddle.grad(paddle.sum(ga), b)[0]
    return {"ga": ga, "mixed": gb_of_ga}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_second_order_division(paddle):
    x = _t(paddle, [1.0, 2.0, 4.0])
    y = _t(paddle, [2.0, 0.5, 3.0])
    q = paddle.sum(x / y)
    gx, gy = paddle.grad(q, [x, y], create_graph=True)
    gyy = paddle.grad(paddle.sum(gy), y, retain_graph=True)[0]
    gyx = paddle.grad(paddle.sum(gy), x)[0]
    return {"gx": gx, "gy": gy, "gyy": gyy, "gyx": gyx}


@program(item="fresh")
def f10_second_order_where_maximum(paddle):
    x = _t(paddle, [-1.0, 0.5, 2.0])
    y = _t(paddle, [0.0, 1.0, 1.0])
    w = paddle.where(x > 0, x ** 3, x ** 2)
    gw = paddle.grad(paddle.sum(w), x, create_graph=True)[0]
    gww = paddle.grad(paddle.sum(gw), x)[0]
    m = paddle.maximum(x * x, y)
    gm = paddle.grad(paddle.sum(m), [x, y], create_graph=True)
    gmm = paddle.grad(paddle.sum(gm[0]), x, allow_unused=True)[0]
    return {"gw": gw, "gww": gww, "gmx": gm[0], "gmy": gm[1], "gmm": gmm}


@program(item="fresh")
def f10_abs_clip_grads_at_kinks(paddle):
    x = _t(paddle, [-2.0, 0.0, 0.5, 1.0, 3.0])
    ga = paddle.grad(paddle.sum(paddle.abs(x) * x), x, create_graph=True)[0]
    gaa = paddle.grad(paddle.sum(ga), x)[0]
    x2 = _t(paddle, [-2.0, 0.0, 0.5, 1.0, 3.0])
    gc = paddle.grad(paddle.sum(paddle.clip(x2, min=0.0, max=1.0)), x2)[0]
    return {"ga": ga, "gaa": gaa, "gc": gc}


@program(item="fresh", differs=(["hsum"], NO_HIGHER_ORDER), rtol=1e-6, atol=1e-8)
def f10_norm_grad_and_hessian_trace(paddle):
    x = _t(paddle, [3.0, 4.0, 12.0])
    n = paddle.norm(x)
    g = paddle.grad(n, x, retain_graph=True)[0]
    h_diag_sum = attempt(lambda: paddle.grad(paddle.sum(paddle.grad(n, x, create_graph=True)[0]),
                                             x)[0])
    x1 = _t(paddle, [1.0, -2.0, 0.5])
    g1 = paddle.grad(paddle.norm(x1, p=1), x1)[0]
    return {"n": n, "g": g, "hsum": h_diag_sum, "g1": g1}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_second_order_float32_vs_float64(paddle):
    out = {}
    for dt in ("float32", "float64"):
        x = paddle.to_tensor([0.25, 1.0], dtype=dt, stop_gradient=False)
        g = paddle.grad(paddle.sum(paddle.tanh(x) * x), x, create_graph=True)[0]
        gg = paddle.grad(paddle.sum(g), x)[0]
        out[dt] = [g.dtype == x.dtype, gg.numpy().astype("float64").round(5)]
    return out


@program(item="fresh")
def f10_higher_order_empty_and_broadcast(paddle):
    e = paddle.to_tensor(np.zeros((0, 3)), stop_gradient=False)
    ge = paddle.grad(paddle.sum(paddle.exp(e)), e, create_graph=True)[0]
    a = _t(paddle, [[1.0], [2.0]])
    b = _t(paddle, [1.0, 2.0, 3.0])
    y = paddle.sum((a * b) ** 2)
    ga, gb = paddle.grad(y, [a, b], create_graph=True)
    gab = paddle.grad(paddle.sum(ga), b)[0]
    return {"ge": ge, "ga": ga, "gb": gb, "gab": gab}


# ---------------------------------------------------------------- linalg gradients


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_linalg_inv_grad_formula(paddle):
    a_np = _spd(3)
    a = _t(paddle, a_np)
    g = paddle.grad(paddle.sum(paddle.linalg.inv(a)), a)[0]
    inv = np.linalg.inv(a_np)
    expect = -inv.T @ np.ones((3, 3)) @ inv.T
    return {"g": g, "err": float(np.abs(g.numpy() - expect).max()) < 1e-9}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_linalg_det_slogdet_grad(paddle):
    a_np = np.array([[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, 1.0, -1.5]])
    a = _t(paddle, a_np)
    gd = paddle.grad(paddle.linalg.det(a), a)[0]
    a2 = _t(paddle, a_np)
    s = paddle.linalg.slogdet(a2)
    gs = paddle.grad(paddle.sum(s[1]) if isinstance(s, (list, tuple)) else s[1], a2)[0]
    return {"det_grad": gd, "det_ok": bool(np.allclose(gd.numpy(), np.linalg.det(a_np)
                                                        * np.linalg.inv(a_np).T)),
            "slog": s, "slog_grad": gs}


@program(item="fresh", differs=(["g"], NO_HIGHER_ORDER), rtol=1e-6, atol=1e-8)
def f10_linalg_det_batched_second_order(paddle):
    a = _t(paddle, np.stack([_spd(2), np.array([[1.0, 2.0], [3.0, 4.0]])]))
    d = paddle.linalg.det(a)
    g = attempt(lambda: paddle.grad(paddle.sum(d), a, create_graph=True)[0])
    g1 = paddle.grad(paddle.sum(d), a)[0]
    return {"d": d, "g": g, "g1": g1}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_linalg_cholesky_grad(paddle):
    a_np = _spd(3)
    a = _t(paddle, a_np)
    l = paddle.linalg.cholesky(a)
    g = paddle.grad(paddle.sum(paddle.diagonal(l)), a)[0]
    up = _t(paddle, a_np)
    u = paddle.linalg.cholesky(up, upper=True)
    gu = paddle.grad(paddle.sum(u * u), up)[0]
    return {"l": l, "g_sym": g + g.T, "gu_sym": gu + gu.T}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_linalg_solve_grad(paddle):
    a_np = _spd(3)
    b_np = np.array([[1.0], [2.0], [-1.0]])
    a, b = _t(paddle, a_np), _t(paddle, b_np)
    x = paddle.linalg.solve(a, b)
    ga, gb = paddle.grad(paddle.sum(x), [a, b])
    gb_expect = np.linalg.solve(a_np.T, np.ones((3, 1)))
    ga_expect = -gb_expect @ np.linalg.solve(a_np, b_np).T
    return {"x": x, "gb": gb, "ga": ga, "gb_ok": bool(np.allclose(gb.numpy(), gb_expect)),
            "ga_ok": bool(np.allclose(ga.numpy(), ga_expect))}


@program(item="fresh", rtol=1e-5, atol=1e-7)
def f10_linalg_qr_grad_r_diag(paddle):
    a = _t(paddle, [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.5, -1.0, 2.0]])
    q, r = paddle.linalg.qr(a)
    loss = paddle.sum(paddle.abs(paddle.diagonal(r))) + paddle.sum(q * q * q)
    g = paddle.grad(loss, a)[0]
    return {"qtq": paddle.matmul(q.T, q), "absr": paddle.abs(r), "g": g, "shapes": [q.shape,
                                                                                  r.shape]}


@program(item="fresh", differs=([""], QR_R_ONLY_CRASH), rtol=1e-5, atol=1e-7, isolate=True)
def f10_linalg_qr_grad_tall(paddle):
    # Paddle 3.3.1's CPU qr_grad kernel dies (a segmentation fault) when only R is used
    a = _t(paddle, [[2.0, 1.0], [1.0, 3.0], [0.5, -1.0]])
    q, r = paddle.linalg.qr(a)
    g = paddle.grad(paddle.sum(paddle.abs(paddle.diagonal(r))), a)[0]
    return {"absr": paddle.abs(r), "g": g}


@program(item="fresh", rtol=1e-5, atol=1e-7)
def f10_linalg_svd_values_grad(paddle):
    a_np = np.array([[3.0, 1.0, 0.0], [1.0, 2.0, 1.0]])
    a = _t(paddle, a_np)
    s = paddle.linalg.svd(a)[1]
    g = paddle.grad(paddle.sum(s), a)[0]
    u, _, vt = np.linalg.svd(a_np, full_matrices=False)
    a2 = _t(paddle, a_np)
    nuc = paddle.linalg.norm(a2, p="nuc")
    g2 = attempt(lambda: paddle.grad(nuc, a2)[0])
    return {"s": s, "g": g, "ok": bool(np.allclose(g.numpy(), u @ vt)), "nuc": nuc, "g2": g2}


@program(item="fresh", rtol=1e-5, atol=1e-7)
def f10_linalg_eigh_values_grad(paddle):
    a_np = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 1.0]])
    a = _t(paddle, a_np)
    w, v = paddle.linalg.eigh(a)
    g = paddle.grad(paddle.sum(w * paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")), a)[0]
    _, vn = np.linalg.eigh(a_np)
    expect = vn @ np.diag([1.0, 2.0, 3.0]) @ vn.T
    a2 = _t(paddle, a_np)
    w2 = paddle.linalg.eigvalsh(a2)
    g2 = paddle.grad(paddle.sum(w2 ** 2), a2)[0]
    return {"w": w, "ok": bool(np.allclose(g.numpy(), expect)), "g2": g2}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_linalg_matrix_power_grad(paddle):
    a_np = np.array([[1.0, 0.5], [-0.5, 2.0]])
    out = {}
    for n in (0, 1, 3, -2):
        a = _t(paddle, a_np)
        p = paddle.linalg.matrix_power(a, n)
        g = paddle.grad(paddle.sum(p), a, allow_unused=True)[0]
        out[f"p{n}".replace("-", "m")] = [p, g]
    return out


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_linalg_norm_variants_grad(paddle):
    m_np = np.array([[1.0, -2.0], [3.0, 0.5]])
    out = {}
    for name, kw in (("fro", {"p": "fro"}), ("inf", {"p": float("inf")}),
                     ("p2_axis", {"p": 2, "axis": 1}), ("p1_axis0", {"p": 1, "axis": 0})):
        m = _t(paddle, m_np)
        n = paddle.linalg.norm(m, **kw)
        out[name] = [n, paddle.grad(paddle.sum(n), m)[0]]
    return out


@program(item="fresh", rtol=1e-5, atol=1e-7)
def f10_linalg_pinv_grad(paddle):
    a_np = np.array([[1.0, 2.0], [3.0, 4.0], [0.0, 1.0]])
    a = _t(paddle, a_np)
    p = paddle.linalg.pinv(a)
    g = paddle.grad(paddle.sum(p * p), a)[0]
    eps = 1e-6
    num = np.zeros_like(a_np)
    for i in range(3):
        for j in range(2):
            d = np.zeros_like(a_np)
            d[i, j] = eps
            num[i, j] = ((np.linalg.pinv(a_np + d) ** 2).sum()
                         - (np.linalg.pinv(a_np - d) ** 2).sum()) / (2 * eps)
    return {"p": p, "g": g, "ok": bool(np.allclose(g.numpy(), num, atol=1e-5))}


@program(item="fresh")
def f10_linalg_errors(paddle):
    sing = _t(paddle, [[1.0, 2.0], [2.0, 4.0]])
    notpd = _t(paddle, [[1.0, 2.0], [2.0, 1.0]])
    rect = _t(paddle, [[1.0, 2.0, 3.0]])
    return {"inv_rect": attempt(paddle.linalg.inv, rect),
            "det_rect": attempt(paddle.linalg.det, rect),
            "chol": attempt(lambda: paddle.linalg.cholesky(notpd).numpy()),
            "solve_shape": attempt(paddle.linalg.solve, sing, _t(paddle, [[1.0, 2.0, 3.0]]))}


# ---------------------------------------------------------------- hooks and retain_grads


@program(item="fresh")
def f10_hook_on_leaf_modifies_grad(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    seen = []

    def hook(g):
        seen.append(g.numpy().copy())
        return g * 10

    h = x.register_hook(hook)
    paddle.sum(x * x).backward()
    first = x.grad.numpy().copy()
    h.remove()
    x.clear_grad()
    paddle.sum(x * x).backward()
    return {"seen": seen, "first": first, "second": x.grad}


@program(item="fresh")
def f10_hook_on_intermediate_changes_upstream(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 3
    y.register_hook(lambda g: g * 0 + 1.5)
    z = paddle.sum(y * y)
    z.backward()
    return {"xg": x.grad, "y_grad": y.grad}


@program(item="fresh")
def f10_hook_returning_none_observes(paddle):
    x = _t(paddle, [2.0, -1.0])
    log = []
    y = paddle.exp(x)
    y.register_hook(lambda g: log.append(g.numpy().tolist()))
    paddle.sum(y * 2).backward()
    return {"log": log, "xg": x.grad}


@program(item="fresh")
def f10_retain_grads_intermediate(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * x
    y.retain_grads()
    w = y + 1
    paddle.sum(w * 3).backward()
    return {"y_grad": y.grad, "w_grad_none": w.grad is None, "x_grad": x.grad,
            "y_leaf": y.is_leaf}


@program(item="fresh")
def f10_hooks_with_paddle_grad(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    y.register_hook(lambda g: g * -1)
    g = paddle.grad(paddle.sum(y * y), x)[0]
    return {"g": g}


@program(item="fresh")
def f10_two_hooks_order(paddle):
    x = _t(paddle, [1.0])
    x.register_hook(lambda g: g + 1)
    x.register_hook(lambda g: g * 2)
    paddle.sum(x * 5).backward()
    return {"g": x.grad}


@program(item="fresh")
def f10_hook_on_stop_gradient_tensor(paddle):
    x = _t(paddle, [1.0], grad=False)
    return {"err": attempt(x.register_hook, lambda g: g)}


# ---------------------------------------------------------------- stop_gradient and detach


@program(item="fresh")
def f10_detach_inside_graph(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x
    z = y.detach() * x + y
    paddle.sum(z).backward()
    d = y.detach()
    return {"xg": x.grad, "d_sg": d.stop_gradient, "d_leaf": d.is_leaf, "d": d}


@program(item="fresh")
def f10_stop_gradient_set_on_intermediate(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 4
    y.stop_gradient = True
    z = paddle.sum(y * x)
    z.backward()
    return {"xg": x.grad, "z_sg": z.stop_gradient}


@program(item="fresh")
def f10_detach_shares_memory(paddle):
    x = _t(paddle, [1.0, 2.0])
    d = x.detach()
    with paddle.no_grad():
        d[0] = 9.0
    return {"x": x, "d": d}


@program(item="fresh")
def f10_stop_gradient_mixed_inputs_grad(paddle):
    a = _t(paddle, [1.0, 2.0])
    b = _t(paddle, [3.0, 4.0], grad=False)
    c = a * b
    d = b * 2
    return {"c_sg": c.stop_gradient, "d_sg": d.stop_gradient,
            "err": attempt(paddle.grad, paddle.sum(c), b),
            "ga": paddle.grad(paddle.sum(c), a)[0]}


# ---------------------------------------------------------------- grad modes


@program(item="fresh")
def f10_no_grad_context_and_decorator(paddle):
    x = _t(paddle, [1.0, 2.0])
    with paddle.no_grad():
        y = x * 2
        inside = paddle.is_grad_enabled()

    @paddle.no_grad()
    def f(t):
        return t * 3

    z = f(x)
    return {"y_sg": y.stop_gradient, "inside": inside, "z_sg": z.stop_gradient,
            "after": paddle.is_grad_enabled()}


@program(item="fresh")
def f10_enable_grad_inside_no_grad(paddle):
    x = _t(paddle, [1.0, 2.0])
    with paddle.no_grad():
        with paddle.enable_grad():
            y = x * 2
        z = x * 2
    y.sum().backward()
    return {"y_sg": y.stop_gradient, "z_sg": z.stop_gradient, "xg": x.grad}


@program(item="fresh")
def f10_enable_grad_decorator(paddle):
    x = _t(paddle, [1.0, 2.0])

    @paddle.enable_grad()
    def g(t):
        return t * t

    with paddle.no_grad():
        y = g(x)
    y.sum().backward()
    return {"y_sg": y.stop_gradient, "xg": x.grad}


@program(item="fresh")
def f10_no_grad_then_paddle_grad_error(paddle):
    x = _t(paddle, [1.0, 2.0])
    with paddle.no_grad():
        y = paddle.sum(x * x)
    return {"y_sg": y.stop_gradient, "err": attempt(paddle.grad, y, x),
            "err_bw": attempt(y.backward)}


@program(item="fresh")
def f10_no_grad_restores_after_exception(paddle):
    def boom():
        with paddle.no_grad():
            raise ValueError("x")

    r = attempt(boom)
    x = _t(paddle, [1.0])
    return {"r": r, "enabled": paddle.is_grad_enabled(), "sg": (x * 2).stop_gradient}


# ---------------------------------------------------------------- PyLayer


@program(item="fresh")
def f10_pylayer_several_outputs(paddle):
    class Split(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * x

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 100

    x = _t(paddle, [1.0, 2.0])
    a, b = Split.apply(x)
    paddle.sum(a + b).backward()
    x2 = _t(paddle, [1.0, 2.0])
    a2, _ = Split.apply(x2)
    paddle.sum(a2).backward()
    return {"xg": x.grad, "x2g": x2.grad}


@program(item="fresh")
def f10_pylayer_mark_non_differentiable(paddle):
    class ArgMaxVal(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = paddle.argmax(x)
            mask = (x > 0).astype(x.dtype)
            ctx.mark_non_differentiable(mask)
            ctx.save_for_backward(mask)
            return x * mask, mask, idx

        @staticmethod
        def backward(ctx, g, gmask, gidx):
            mask, = ctx.saved_tensor()
            return g * mask

    x = _t(paddle, [-1.0, 2.0, 3.0])
    y, m, i = ArgMaxVal.apply(x)
    paddle.sum(y).backward()
    return {"y": y, "m_sg": m.stop_gradient, "i": i, "xg": x.grad}


@program(item="fresh")
def f10_pylayer_set_materialize_grads(paddle):
    seen = {}

    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return x + 1, x * 2

        @staticmethod
        def backward(ctx, g1, g2):
            seen[len(seen)] = [g1 is None, g2 is None]
            out = g1 if g1 is not None else 0
            return out + (g2 * 2 if g2 is not None else 0)

    x = _t(paddle, [1.0, 2.0])
    a, _ = Two.apply(x, True)
    a.sum().backward()
    first = x.grad.numpy().copy()
    x.clear_grad()
    a, _ = Two.apply(x, False)
    a.sum().backward()
    return {"seen": seen, "first": first, "second": x.grad}


@program(item="fresh")
def f10_pylayer_in_layer(paddle):
    class Clamp(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return paddle.clip(x, -1.0, 1.0)

        @staticmethod
        def backward(ctx, g):
            return g  # straight-through

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = paddle.nn.Linear(2, 2)
            self.lin.weight.set_value(paddle.to_tensor([[1.0, 2.0], [-1.0, 3.0]]))
            self.lin.bias.set_value(paddle.to_tensor([0.5, -0.5]))

        def forward(self, x):
            return Clamp.apply(self.lin(x))

    net = Net()
    x = paddle.to_tensor([[1.0, 1.0], [0.1, -0.2]])
    out = net(x)
    (out * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    return {"out": out, "wg": net.lin.weight.grad, "bg": net.lin.bias.grad}


@program(item="fresh")
def f10_pylayer_non_tensor_args_and_none_grad(paddle):
    class Scale(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, w, k):
            ctx.k = k
            ctx.save_for_backward(x, w)
            return x * w * k

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensor()
            return g * w * ctx.k, None

    x = _t(paddle, [1.0, 2.0])
    w = _t(paddle, [3.0, 4.0], grad=False)
    y = Scale.apply(x, w, 0.5)
    y.sum().backward()
    return {"y": y, "xg": x.grad, "wg": w.grad}


# ---------------------------------------------------------------- jacobian / hessian


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_autograd_jacobian(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = paddle.stack([x[0] * x[1], paddle.sin(x[2]), paddle.sum(x * x)])
    j = paddle.autograd.jacobian(y, x)
    full = j[:]
    return {"full": full, "shape": full.shape, "row1": j[1]}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_autograd_jacobian_batched(paddle):
    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
    y = x * x * paddle.to_tensor([1.0, 2.0], dtype="float64")
    j = paddle.autograd.jacobian(y, x, batch_axis=0)
    return {"j": j[:], "shape": j[:].shape}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_autograd_hessian(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = paddle.sum(x[0] ** 2 * x[1] + paddle.exp(x[1]))
    h = paddle.autograd.hessian(y, x)
    return {"h": h[:], "shape": h[:].shape}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_autograd_jacobian_multi(paddle):
    x = _t(paddle, [1.0, 2.0])
    z = _t(paddle, [0.5])
    y1 = x * z
    y2 = paddle.sum(x) + z
    js = paddle.autograd.jacobian([y1, y2], [x, z])
    return {"j00": js[0][0][:], "j01": js[0][1][:], "j10": js[1][0][:], "j11": js[1][1][:]}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_incubate_jacobian_hessian(paddle):
    def f(x):
        return paddle.tanh(x) * paddle.sum(x)

    x = _t(paddle, [0.5, -0.3, 1.0])
    J = paddle.incubate.autograd.Jacobian(f, x)
    H = paddle.incubate.autograd.Hessian(lambda t: paddle.sum(t ** 3 * paddle.exp(t[0])), x)
    return {"J": J[:], "Jshape": J.shape, "H": H[:], "Hshape": H.shape}


@program(item="fresh", differs=(["jv"], JVP_POW), rtol=1e-6, atol=1e-8)
def f10_incubate_vjp_jvp(paddle):
    def f(x):
        return paddle.matmul(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64"), x) ** 2

    x = _t(paddle, [[1.0], [-1.0]])
    v = _t(paddle, [[1.0], [0.5]], grad=False)
    fo, vj = paddle.incubate.autograd.vjp(f, x, v)
    jv = attempt(paddle.incubate.autograd.jvp, f, x, v)
    fo3, vj_default = paddle.incubate.autograd.vjp(f, x)
    return {"fo": fo, "vj": vj, "jv": jv, "vj_default": vj_default, "fo3": fo3}


@program(item="fresh", rtol=1e-6, atol=1e-8)
def f10_incubate_jacobian_two_inputs_batched(paddle):
    def f(x, y):
        return x * y

    x = _t(paddle, [[1.0, 2.0], [3.0, 4.0]])
    y = _t(paddle, [[0.5, 1.0], [2.0, -1.0]])
    J = paddle.incubate.autograd.Jacobian(f, [x, y], is_batched=True)
    return {"J": J[:], "shape": J.shape}


# ---------------------------------------------------------------- backward, accumulation, errors


@program(item="fresh")
def f10_backward_with_grad_tensor(paddle):
    x = _t(paddle, [1.0, 2.0, 3.0])
    y = x * x
    y.backward(paddle.to_tensor([1.0, 0.1, 0.01], dtype="float64"))
    x2 = _t(paddle, [1.0, 2.0])
    x3 = _t(paddle, [3.0])
    paddle.autograd.backward([x2 * 2, x3 ** 2], [paddle.to_tensor([1.0, -1.0], dtype="float64"),
                                                 None])
    return {"xg": x.grad, "x2g": x2.grad, "x3g": x3.grad}


@program(item="fresh")
def f10_backward_nonscalar_without_grad_tensor(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 3
    y.backward()
    return {"xg": x.grad}


@program(item="fresh")
def f10_accumulate_over_backwards_and_clear(paddle):
    w = _t(paddle, [1.0, -1.0])
    grads = []
    for k in range(3):
        loss = paddle.sum(w * w * (k + 1))
        loss.backward()
        grads.append(w.grad.numpy().copy())
    w.clear_grad()
    after_clear = w.grad
    paddle.sum(w * 7).backward()
    return {"grads": grads, "after_clear": after_clear, "again": w.grad}


@program(item="fresh")
def f10_clear_grad_set_to_zero_false(paddle):
    w = _t(paddle, [2.0])
    (w * 3).sum().backward()
    w.clear_gradient(False)
    none_after = w.grad is None
    (w * 4).sum().backward()
    return {"none_after": none_after, "g": w.grad}


@program(item="fresh")
def f10_layer_clear_gradients_accumulation(paddle):
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(paddle.to_tensor([[1.0], [2.0]]))
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    lin(x).sum().backward()
    lin(x).sum().backward()
    twice = lin.weight.grad.numpy().copy()
    lin.clear_gradients()
    return {"twice": twice, "cleared": lin.weight.grad, "bias": lin.bias.grad}


@program(item="fresh")
def f10_backward_twice_error(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = paddle.sum(paddle.exp(x))
    y.backward()
    err = attempt(y.backward)
    y2 = paddle.sum(x * x)
    y2.backward(retain_graph=True)
    y2.backward()
    return {"err": err, "xg": x.grad}


@program(item="fresh")
def f10_grad_tensor_not_in_graph(paddle):
    x = _t(paddle, [1.0, 2.0])
    other = _t(paddle, [5.0, 6.0])
    y = paddle.sum(x * 2)
    err = attempt(paddle.grad, y, other)
    ok = paddle.grad(y, other, allow_unused=True)[0]
    return {"err": err, "ok_none": ok is None}


@program(item="fresh", differs=(["err"], GRAD_SHAPE))
def f10_grad_outputs_shape_mismatch(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * x
    return {"err": attempt(paddle.grad, y, x, grad_outputs=_t(paddle, [1.0, 2.0, 3.0],
                                                                grad=False))}


@program(item="fresh")
def f10_backward_grad_tensor_dtype_and_shape(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = x * 2
    bad = attempt(y.backward, paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64"))
    x2 = _t(paddle, [1.0, 2.0])
    return {"bad": bad, "ok": attempt(lambda: ((x2 * 2).backward(paddle.ones([2], "float64")),
                                               x2.grad)[1])}


@program(item="fresh")
def f10_inplace_on_leaf_requiring_grad(paddle):
    x = _t(paddle, [1.0, 2.0])
    err = attempt(lambda: x.add_(paddle.to_tensor([1.0, 1.0], dtype="float64")))
    y = x * 1
    y.exp_()
    paddle.sum(y).backward()
    return {"err": err, "xg": x.grad}


@program(item="fresh")
def f10_gradient_method_and_grad_dtype(paddle):
    x = paddle.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    paddle.sum(paddle.log(x)).backward()
    g = x.gradient()
    return {"g": g, "gdtype": str(x.grad.dtype).split(".")[-1], "shape": x.grad.shape,
            "grad_sg": x.grad.stop_gradient}


@program(item="fresh")
def f10_double_backward_through_backward_call(paddle):
    x = _t(paddle, [1.0, 2.0])
    y = paddle.sum(x ** 4)
    g = paddle.grad(y, x, create_graph=True)[0]
    paddle.sum(g * g).backward()
    return {"xg": x.grad, "g": g}

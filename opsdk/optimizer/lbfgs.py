"""L-BFGS: quasi-Newton steps from a limited history of gradient differences, with an optional
strong-Wolfe line search (Nocedal & Wright, Numerical Optimization, algorithms 7.4, 3.5, 3.6),
as Paddle 3.3.1's LBFGS runs them; the parameters are updated in place, in NumPy."""
import math

import numpy as np

from ..autograd.grad_mode import enable_grad, no_grad
from ..errors import ArgumentTypeError, OpArgumentError
from ..tensor import Tensor
from .optimizer import Optimizer


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2, clamped to
    bounds (the interval [x1, x2] by default); the bounds' middle when the cubic has none."""
    lo, hi = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    disc = d1 * d1 - g1 * g2
    if disc < 0:
        return (lo + hi) / 2.0
    d2 = math.sqrt(disc)
    if x1 <= x2:
        t = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        t = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(t, lo), hi)


def _strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """A step t along d meeting the strong Wolfe conditions: bracket it (growing t by cubic
    extrapolation), then zoom (cubic interpolation, kept 10 % inside the bracket).

    evaluate(t) -> (loss, flat gradient) at the parameters moved by t d. Returns
    (loss, gradient, t, evaluations).
    """
    d_norm = float(np.abs(d).max())
    f_new, g_new = evaluate(t)
    evals, it = 1, 0
    gtd_new = float(g_new @ d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g.copy(), gtd
    done = False
    bracket = bracket_f = bracket_g = bracket_gtd = None
    while it < max_ls:
        if f_new > f + c1 * t * gtd or (it > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        grown = _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                               bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new.copy(), gtd_new
        t = grown
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = float(g_new @ d)
        it += 1
    if it == max_ls:
        # (as Paddle: the slopes keep the last bracket's, or none if there was none)
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
    insufficient = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and it < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(bracket[0], bracket_f[0], bracket_gtd[0],
                           bracket[1], bracket_f[1], bracket_gtd[1])
        top, bottom = max(bracket), min(bracket)
        eps = 0.1 * (top - bottom)
        if min(top - t, t - bottom) < eps:
            if insufficient or t >= top or t <= bottom:
                t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = float(g_new @ d)
        it += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = t, f_new
            bracket_g[high], bracket_gtd[high] = g_new.copy(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = t, f_new
            bracket_g[low], bracket_gtd[low] = g_new.copy(), gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


class LBFGS(Optimizer):
    """L-BFGS, as Paddle's: ``step(closure)`` runs up to max_iter iterations, each a search
    direction from the two-loop recursion over the last history_size (s, y) pairs and a step
    of learning_rate (the first iteration's scaled by min(1, 1 / |g|_1)), or of the strong-Wolfe
    line search's choice. The closure clears the gradients, computes the loss, calls backward
    and returns the loss; step returns the first loss.

    As Paddle's, it reads the raw gradients (weight_decay and grad_clip are accepted and not
    applied), and with parameter groups it optimizes the last group's parameters.

    Args:
        learning_rate: the step size (1.0).
        max_iter: iterations per step (20); max_eval: closure calls per step (max_iter * 5 / 4).
        tolerance_grad: stop when max |g| is at most this (1e-7).
        tolerance_change: stop when the step, or the loss change, is below this (1e-9).
        history_size: the (s, y) pairs kept (100).
        line_search_fn: None or 'strong_wolfe'.

    Example:
        >>> opt = opsdk.optimizer.LBFGS(parameters=[w], line_search_fn="strong_wolfe")
        >>> def closure():
        ...     opt.clear_grad(); loss = ((w - 3) ** 2).sum(); loss.backward(); return loss
        >>> opt.step(closure)
    """

    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        if isinstance(parameters, Tensor):
            raise ArgumentTypeError("LBFGS: 'parameters' must be an iterable of Tensors or "
                                    "dicts; got: a single Tensor")
        if line_search_fn not in (None, "strong_wolfe"):
            raise OpArgumentError(f"LBFGS: line_search_fn must be None or 'strong_wolfe'; got: "
                                  f"{line_search_fn!r}")
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        self.tolerance_grad = tolerance_grad
        self.tolerance_change = tolerance_change
        self.history_size = history_size
        self.line_search_fn = line_search_fn
        self.state = {}
        self._params = self._param_groups[-1]["params"]

    def _update(self, p, g, lr, state, group):
        raise NotImplementedError("LBFGS updates in step(closure)")

    _update_sparse = _update

    # -- flat views of the parameters and their gradients -----------------------------------
    def _flat_grad(self):
        return np.concatenate([
            (np.zeros(p.array.size, p.array.dtype) if p.grad is None else
             np.asarray(p.grad.array, dtype=p.array.dtype).reshape(-1)) for p in self._params])

    def _move(self, t, d):
        offset = 0
        for p in self._params:
            n = p.array.size
            p.array += (d[offset:offset + n] * t).reshape(p.array.shape).astype(p.array.dtype)
            p._version += 1
            offset += n

    def _set(self, values):
        for p, v in zip(self._params, values):
            p.array[...] = v
            p._version += 1

    def step(self, closure):
        """Run the iterations; returns the closure's first loss."""
        if not callable(closure):
            raise ArgumentTypeError("LBFGS.step: needs a closure that computes the loss and "
                                    "its gradients (loss.backward()) and returns the loss")
        with no_grad():
            return self._step(enable_grad()(closure))

    def _step(self, closure):
        st = self.state
        st.setdefault("func_evals", 0)
        st.setdefault("n_iter", 0)
        first = closure()
        loss = float(first)
        evals = 1
        st["func_evals"] += 1
        g = self._flat_grad()
        if np.abs(g).max() <= self.tolerance_grad:
            return first
        d, t = st.get("d"), st.get("alpha")
        old_y, old_s, ro = st.get("old_yk"), st.get("old_sk"), st.get("ro")
        h_diag, prev_g, prev_loss = st.get("H_diag"), st.get("prev_flat_grad"), st.get("prev_loss")
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            st["n_iter"] += 1
            if st["n_iter"] == 1:
                d, old_y, old_s, ro, h_diag = -g, [], [], [], 1.0
            else:
                y, s = g - prev_g, d * t
                ys = float(y @ s)
                if ys > 1e-10:
                    if len(old_y) == self.history_size:
                        old_y.pop(0), old_s.pop(0), ro.pop(0)
                    old_y.append(y), old_s.append(s), ro.append(1.0 / ys)
                    h_diag = ys / float(y @ y)
                al = st.setdefault("al", [None] * self.history_size)
                q = -g
                for i in range(len(old_y) - 1, -1, -1):
                    al[i] = float(old_s[i] @ q) * ro[i]
                    q = q - old_y[i] * al[i]
                d = q * h_diag
                for i in range(len(old_y)):
                    beta = float(old_y[i] @ d) * ro[i]
                    d = d + old_s[i] * (al[i] - beta)
            prev_g = g.copy()
            prev_loss = loss
            if st["n_iter"] == 1:
                t = min(1.0, 1.0 / float(np.abs(g).sum())) * self.learning_rate
            else:
                t = self.learning_rate
            gtd = float(g @ d)
            if gtd > -self.tolerance_change:
                break
            ls_evals = 0
            if self.line_search_fn is not None:
                start = [p.array.copy() for p in self._params]

                def evaluate(step, start=start, d=d):
                    self._move(step, d)
                    value = float(closure())
                    grad = self._flat_grad()
                    self._set(start)
                    return value, grad
                loss, g, t, ls_evals = _strong_wolfe(evaluate, t, d, loss, g, gtd)
                self._move(t, d)
                converged = np.abs(g).max() <= self.tolerance_grad
            else:
                self._move(t, d)
                converged = False
                if n_iter != self.max_iter:
                    loss = float(closure())
                    g = self._flat_grad()
                    converged = np.abs(g).max() <= self.tolerance_grad
                    ls_evals = 1
            evals += ls_evals
            st["func_evals"] += ls_evals
            if converged or np.abs(d * t).max() <= self.tolerance_change or \
                    abs(loss - prev_loss) < self.tolerance_change or evals >= self.max_eval:
                break
        st.update(d=d, alpha=t, old_yk=old_y, old_sk=old_s, ro=ro, H_diag=h_diag,
                  prev_flat_grad=prev_g, prev_loss=prev_loss)
        return first

    def state_dict(self):
        """{'state': the iteration state (direction, step, history, counters)}, as Paddle's."""
        return {"state": dict(self.state)}

    def set_state_dict(self, state_dict):
        self.state = dict(state_dict["state"])

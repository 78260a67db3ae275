"""Optimizer: the base class (parameter groups, learning rate, clipping, weight decay, state)."""
import abc

import numpy as np

from ..autograd.sparse_rows import SparseRowGrad
from ..errors import ArgumentTypeError, OpArgumentError, RequiredArgumentError, StateError
from ..tensor import Tensor, _wrap
from .lr import LRScheduler
from .regularizer import as_regularizer


class Optimizer(abc.ABC):
    """Base class of the optimizers: ``step()``, ``clear_grad()``, ``state_dict()``.

    A step reads each trainable parameter's ``.grad``, clips the gradients (``grad_clip``),
    adds coupled weight decay (``weight_decay``, or the parameter's own regularizer), then
    updates ``param.array`` in place, so parameters stay leaves. Row-sparse gradients (from
    ``Embedding(sparse=True)``) are applied row by row, never densified; coupled weight decay
    then touches only the rows present, as Paddle regularizes a sparse gradient.

    Args:
        learning_rate: a float or an ``opsdk.optimizer.lr.LRScheduler``.
        parameters: an iterable of parameters, or of dicts {'params': [...], 'learning_rate':
            multiplier, 'weight_decay': ..., other hyperparameters} (parameter groups).
        weight_decay: a float (L2 coefficient) or ``opsdk.optimizer.regularizer.L2Decay/L1Decay``.
        grad_clip: ``opsdk.nn.ClipGradByGlobalNorm``, ``ClipGradByNorm`` or ``ClipGradByValue``.
    """

    _defaults = {}
    _accumulator_names = ()

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        op = type(self).__name__
        if parameters is None:
            raise RequiredArgumentError(f"{op}: 'parameters' is required; expected: e.g. "
                                  f"parameters=model.parameters(); got: None")
        if isinstance(parameters, Tensor):
            raise ArgumentTypeError(f"{op}: 'parameters' must be an iterable of Tensors; got: a "
                                    f"single Tensor (wrap it in a list)")
        params = list(parameters)
        if not params:
            raise OpArgumentError(f"{op}: 'parameters' is empty; expected: at least one "
                                  f"parameter")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self._param_groups = []
        for g in groups:
            self._add_param_group(dict(g))
        if not isinstance(learning_rate, (int, float, LRScheduler)):
            raise ArgumentTypeError(f"{op}: learning_rate must be a float or an LRScheduler; got: "
                                  f"{type(learning_rate).__name__}")
        self._learning_rate = learning_rate
        self.regularization = as_regularizer(weight_decay, op)
        self._grad_clip = grad_clip
        self._state = {}
        self._name = name

    def _add_param_group(self, group):
        op = type(self).__name__
        ps = group.get("params")
        if isinstance(ps, Tensor):
            ps = [ps]
        ps = list(ps or [])
        for i, p in enumerate(ps):
            if not isinstance(p, Tensor):
                raise ArgumentTypeError(f"{op}: parameters[{i}] must be a Tensor; got: "
                                      f"{type(p).__name__}")
        group["params"] = ps
        if "weight_decay" in group:
            group["weight_decay"] = as_regularizer(group["weight_decay"], op)
        self._param_groups.append(group)

    add_param_group = _add_param_group

    @property
    def _parameter_list(self):
        return [p for g in self._param_groups for p in g["params"]]

    # -- learning rate -----------------------------------------------------------------------
    def get_lr(self):
        """The current learning rate, a float (the scheduler's value when there is one)."""
        lr = self._learning_rate
        return float(lr()) if isinstance(lr, LRScheduler) else float(lr)

    def set_lr(self, value):
        """Set a float learning rate (not allowed when the optimizer uses a scheduler)."""
        if isinstance(self._learning_rate, LRScheduler):
            raise StateError(f"{type(self).__name__}.set_lr: the learning rate comes from an "
                             f"LRScheduler; expected: scheduler.step() instead")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler):
        if not isinstance(scheduler, LRScheduler):
            raise ArgumentTypeError(f"set_lr_scheduler: expected: an LRScheduler; got: "
                                  f"{type(scheduler).__name__}")
        self._learning_rate = scheduler

    # -- the step ----------------------------------------------------------------------------
    def step(self):
        """Update every trainable parameter that has a gradient."""
        lr = self.get_lr()
        for group in self._param_groups:
            pairs = []
            for p in group["params"]:
                g = p.grad
                if g is not None and p._req:
                    pairs.append((p, g.array))
            if not pairs:
                continue
            clip = group.get("grad_clip", self._grad_clip)
            if clip is not None:
                pairs = clip._clip_arrays(pairs)
            group_lr = lr * group.get("learning_rate", 1.0)
            for p, g in pairs:
                if g is None:
                    continue
                attr = getattr(p, "optimize_attr", None)
                plr = group_lr * attr["learning_rate"] if attr else group_lr
                g = self._regularized(p, g, group)
                state = self._state.get(id(p))
                if state is None:
                    state = self._state[id(p)] = self._init_state(p)
                    state["param"] = p
                if type(g) is SparseRowGrad:
                    c = g.coalesce()
                    self._update_sparse(p, c.rows, c.values, plr, state, group)
                else:
                    self._update(p, g, plr, state, group)
                p._version += 1

    def _coupled_decay(self, p, group):
        """The regularizer added to p's gradient: p's own, else its group's, else the default."""
        return getattr(p, "regularizer", None) or group.get("weight_decay", self.regularization)

    def _regularized(self, p, g, group):
        reg = self._coupled_decay(p, group)
        if reg is None:
            return g
        if type(g) is SparseRowGrad:
            # Paddle adds the dense decay term to a sparse gradient: every row decays
            return reg.apply(p.array, g.to_dense())
        return reg.apply(p.array, g)

    def _hyper(self, group, key):
        return group.get(key, getattr(self, "_" + key))

    def _init_state(self, p):
        return {}

    @abc.abstractmethod
    def _update(self, p, g, lr, state, group):
        """Each subclass defines this: the in-place update of p.array from gradient g."""

    @abc.abstractmethod
    def _update_sparse(self, p, rows, values, lr, state, group):
        """Each subclass defines this: the update for a row-sparse gradient (rows, values)."""

    def _update_sparse_densely(self, p, rows, values, lr, state, group):
        """A sparse update as the dense one with zeros outside the rows (for rules whose state
        changes in every row anyway: RMSProp, Adamax, Lamb)."""
        dense = np.zeros_like(p.array)
        np.add.at(dense, rows, values)
        self._update(p, dense, lr, state, group)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Apply the gradients loss.backward() computed (as Paddle's dygraph minimize does)."""
        self.step()
        return None, [(p, p.grad) for p in self._parameter_list if p.grad is not None]

    def clear_grad(self, set_to_zero=True):
        """Reset every parameter's gradient: zeros in place (Paddle's default) or None."""
        for p in self._parameter_list:
            g = p.grad
            if g is None:
                continue
            if set_to_zero and g._node is None and type(g.array) is not SparseRowGrad:
                g.array.fill(0)
                g._version += 1
            else:
                p.grad = None

    clear_gradients = clear_grad

    # -- state -------------------------------------------------------------------------------
    @staticmethod
    def _param_key(p, index):
        return p.name if p.name else f"param_{index}"

    def state_dict(self):
        """Accumulators keyed '<param name>_<accumulator>_0', plus 'LR_Scheduler' if any."""
        out = {}
        for i, p in enumerate(self._parameter_list):
            state = self._state.get(id(p))
            if state is None:
                continue
            key = self._param_key(p, i)
            for acc, v in state.items():
                if acc == "param" or v is None:
                    continue
                arr = v if isinstance(v, np.ndarray) else np.asarray([v], dtype=np.float64)
                out[f"{key}_{acc}_0"] = _wrap(arr)
        if isinstance(self._learning_rate, LRScheduler):
            out["LR_Scheduler"] = self._learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict):
        """Load what state_dict() returned (accumulators by parameter name, the scheduler)."""
        for i, p in enumerate(self._parameter_list):
            key = self._param_key(p, i)
            prefix = f"{key}_"
            found = {k[len(prefix):-2]: v for k, v in state_dict.items()
                     if k.startswith(prefix) and k.endswith("_0")}
            if not found:
                continue
            state = self._state.get(id(p))
            if state is None:
                state = self._state[id(p)] = self._init_state(p)
                state["param"] = p
            for acc, v in found.items():
                if acc not in state:
                    continue
                arr = v.numpy() if isinstance(v, Tensor) else np.asarray(v)
                if isinstance(state[acc], np.ndarray):
                    state[acc][...] = arr
                else:
                    state[acc] = float(arr.reshape(-1)[0])
        sched = state_dict.get("LR_Scheduler")
        if sched is not None and isinstance(self._learning_rate, LRScheduler):
            self._learning_rate.set_state_dict(sched)

    set_dict = set_state_dict

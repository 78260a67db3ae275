"""GradScaler: loss scaling for float16 training, with skipped steps and a dynamic scale."""
import numpy as np

from ..errors import OpsdkError
from ..autograd.sparse_rows import SparseRowGrad

_READY, _UNSCALED, _STEPPED = "ready", "unscaled", "stepped"


class GradScaler:
    """Scale the loss so small float16 gradients survive; unscale before the optimizer step.

    ``step(optimizer)`` divides every gradient by the scale and runs the step only when all
    gradients are finite; ``update()`` then shrinks the scale after
    ``decr_every_n_nan_or_inf`` bad steps (times ``decr_ratio``, never below 1) and grows it
    after ``incr_every_n_steps`` good ones (times ``incr_ratio``), as Paddle does.

    Args:
        enable: False makes every method a pass-through (scale(loss) returns loss).
        init_loss_scaling: the starting scale (2**16).
        incr_ratio, decr_ratio: growth and backoff factors.
        incr_every_n_steps: consecutive finite steps before growing.
        decr_every_n_nan_or_inf: inf/nan steps before shrinking.
        use_dynamic_loss_scaling: False keeps the scale fixed.

    Example:
        >>> scaler = opsdk.amp.GradScaler(init_loss_scaling=1024)
        >>> with opsdk.amp.auto_cast():
        ...     loss = model(x).mean()
        >>> scaler.scale(loss).backward()
        >>> scaler.step(optimizer)     # skipped when a gradient is inf/nan
        >>> scaler.update()
        >>> optimizer.clear_grad()
    """

    def __init__(self, enable=True, init_loss_scaling=2.0 ** 16, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        self._enable = bool(enable)
        self._scale = float(init_loss_scaling)
        self._init_scale = float(init_loss_scaling)
        self._incr_ratio = float(incr_ratio)
        self._decr_ratio = float(decr_ratio)
        self._incr_every = int(incr_every_n_steps)
        self._decr_every = int(decr_every_n_nan_or_inf)
        self._dynamic = bool(use_dynamic_loss_scaling)
        self._good_steps = 0
        self._bad_steps = 0
        self._found_inf = False
        self._states = {}

    # -- the training-loop API -------------------------------------------------------------
    def scale(self, var):
        """The loss times the current scale (the loss itself when disabled)."""
        if not self._enable:
            return var
        return var * self._scale

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale, in place, and note any inf/nan."""
        if not self._enable:
            return
        st = self._states.get(id(optimizer), _READY)
        if st == _UNSCALED:
            raise OpsdkError("GradScaler.unscale_: already called for this optimizer since the "
                             "last update(); expected: one unscale_ per step")
        if st == _STEPPED:
            raise OpsdkError("GradScaler.unscale_: called after step(); expected: unscale_ "
                             "before step(), then update()")
        inv = 1.0 / self._scale
        found = False
        for p in optimizer._parameter_list:
            g = p.grad
            if g is None:
                continue
            data = g.array
            arr = data.values if isinstance(data, SparseRowGrad) else data
            arr *= inv
            g._version += 1
            if not found and not np.isfinite(arr).all():
                found = True
        self._found_inf = self._found_inf or found
        self._states[id(optimizer)] = _UNSCALED

    def step(self, optimizer):
        """Unscale (unless done) and run optimizer.step(), unless a gradient is inf/nan."""
        if not self._enable:
            return optimizer.step()
        if self._states.get(id(optimizer)) == _STEPPED:
            raise OpsdkError("GradScaler.step: already called for this optimizer since the last "
                             "update(); expected: step(), update(), then the next step()")
        if self._states.get(id(optimizer), _READY) == _READY:
            self.unscale_(optimizer)
        if not self._found_inf:
            optimizer.step()
        self._states[id(optimizer)] = _STEPPED

    def update(self):
        """Adjust the scale from this step's finding (dynamic scaling), reset for the next."""
        if not self._enable:
            return
        if self._dynamic:
            if self._found_inf:
                self._good_steps = 0
                self._bad_steps += 1
                if self._bad_steps == self._decr_every:
                    self._scale = max(self._scale * self._decr_ratio, 1.0)
                    self._bad_steps = 0
            else:
                self._bad_steps = 0
                self._good_steps += 1
                if self._good_steps == self._incr_every:
                    grown = self._scale * self._incr_ratio
                    self._scale = grown if np.isfinite(grown) else self._scale
                    self._good_steps = 0
        self._found_inf = False
        self._states.clear()

    def minimize(self, optimizer, *args, **kwargs):
        """step(optimizer) then update(), as Paddle's scaler.minimize(optimizer, scaled_loss)."""
        self.step(optimizer)
        self.update()

    # -- inspection ------------------------------------------------------------------------
    @property
    def found_inf(self):
        """True when the current step saw an inf/nan gradient (until update())."""
        return self._found_inf

    def is_enable(self):
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        return self._dynamic

    def get_loss_scaling(self):
        """The current scale, a float."""
        return self._scale

    def get_init_loss_scaling(self):
        return self._init_scale

    def set_init_loss_scaling(self, value):
        self._init_scale = float(value)
        self._scale = float(value)

    def get_incr_ratio(self):
        return self._incr_ratio

    def get_decr_ratio(self):
        return self._decr_ratio

    def get_incr_every_n_steps(self):
        return self._incr_every

    def get_decr_every_n_nan_or_inf(self):
        return self._decr_every

    def state_dict(self):
        """The scaler's settings and counters, for checkpoints."""
        if not self._enable:
            return {}
        return {"scale": self._scale, "incr_ratio": self._incr_ratio,
                "decr_ratio": self._decr_ratio, "incr_every_n_steps": self._incr_every,
                "decr_every_n_nan_or_inf": self._decr_every, "incr_count": self._good_steps,
                "decr_count": self._bad_steps,
                "use_dynamic_loss_scaling": self._dynamic}

    def load_state_dict(self, state_dict):
        """Restore what state_dict() returned."""
        if not state_dict:
            return
        self._scale = float(state_dict["scale"])
        self._incr_ratio = float(state_dict["incr_ratio"])
        self._decr_ratio = float(state_dict["decr_ratio"])
        self._incr_every = int(state_dict["incr_every_n_steps"])
        self._decr_every = int(state_dict["decr_every_n_nan_or_inf"])
        self._good_steps = int(state_dict["incr_count"])
        self._bad_steps = int(state_dict["decr_count"])
        self._dynamic = bool(state_dict["use_dynamic_loss_scaling"])

    set_state_dict = load_state_dict


AmpScaler = GradScaler

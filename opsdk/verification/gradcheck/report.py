"""The result of a gradient check: what failed, where, by how much, and a likely cause."""
from dataclasses import dataclass, field


@dataclass
class Mismatch:
    """One Jacobian element where analytic and numeric disagree."""

    out_index: tuple
    in_index: tuple
    analytic: float
    numeric: float
    abs_err: float
    rel_err: float
    kink: tuple = None  # (left, right) numeric derivatives where they disagree

    def describe(self, out_name, in_name):
        where = (f"d {out_name}[{', '.join(map(str, self.out_index))}] / "
                 f"d {in_name}[{', '.join(map(str, self.in_index))}]")
        text = (f"{where}: analytic {self.analytic:.6g}, numeric {self.numeric:.6g}, "
                f"abs err {self.abs_err:.3g}, rel err {self.rel_err:.3g}")
        if self.kink is not None:
            text += (f" (non-differentiable point: left derivative {self.kink[0]:.6g}, "
                     f"right {self.kink[1]:.6g})")
        return text


@dataclass
class Failure:
    """One problem found. ``output``/``input`` are positions in func's result / inputs (None when
    the problem is not tied to one). Kinds: jacobian, projection, reentrant, zero_grad,
    grad_dtype, grad_shape, grad_device, double_backward, inplace (func wrote into an input),
    grad_write (backward wrote into its incoming gradient)."""

    kind: str
    output: int
    input: int
    message: str
    n_bad: int = 0
    n_total: int = 0
    worst: list = field(default_factory=list)
    hints: list = field(default_factory=list)
    names: tuple = ("output", "input")

    def render(self):
        lines = [f"[{self.kind}] {self.message}"]
        if self.worst:
            lines.append("  worst elements:")
            lines += [f"    {m.describe(*self.names)}" for m in self.worst]
        lines += [f"  hint: {h}" for h in self.hints]
        return "\n".join(lines)


@dataclass
class GradcheckReport:
    """Everything a check found; ``ok`` is True when nothing failed. ``str(report)`` is the text
    GradcheckError shows."""

    order: int
    mode: str
    seed: int
    eps: float
    atol: float
    rtol: float
    failures: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    kinks_skipped: int = 0
    fast_failures: list = field(default_factory=list)
    derived: bool = False
    loosened: bool = False
    ratio: float = None  # the largest |analytic - numeric| / allowed among compared elements

    @property
    def ok(self):
        return not self.failures

    def pairs(self):
        """The (output, input) positions named by the failures."""
        return {(f.output, f.input) for f in self.failures}

    def __str__(self):
        name = "gradcheck" if self.order == 1 else "gradgradcheck"
        if self.derived:
            loosen = "" if not (self.atol or self.rtol) else \
                f", loosened by the op to atol {self.atol:g}, rtol {self.rtol:g}"
            tols = f"tolerances derived from the numerics{loosen}"
        else:
            tols = f"atol {self.atol:g}, rtol {self.rtol:g}"
        head = (f"{name} {'passed' if self.ok else 'failed'} ({self.mode} mode, seed "
                f"{self.seed}, eps {self.eps:g}, {tols})")
        lines = [head]
        if self.fast_failures and self.mode == "fast":
            lines.append("fast mode (random projections vᵀJu) flagged: " + "; ".join(
                self.fast_failures) + "; the full Jacobian was computed for the report")
        lines += [f.render() for f in self.failures]
        lines += [f"note: {n}" for n in self.notes]
        if self.kinks_skipped:
            lines.append(f"note: {self.kinks_skipped} Jacobian element(s) sit on a "
                         "non-differentiable point (left and right derivatives differ) and the "
                         "analytic value lies between them; they were not counted as failures")
        if not self.ok:
            lines.append(f"replay: {name}(func, inputs, ..., fast_mode={self.mode == 'fast'}, "
                         f"seed={self.seed})")
        return "\n".join(lines)

"""Running the framework checks over ops, and the table ``opsdk check --framework`` prints."""
from ...interop._require import require

_CHECKS = {"torch": ("torch_checks", "verify_torch"), "jax": ("jax_checks", "verify_jax"),
           "paddle": ("paddle_checks", "verify_paddle")}


def verify(framework, ops):
    """Outcomes of every check of ``framework`` on each op (OpInfo) in ``ops``.

    Raises:
        FrameworkNotInstalledError: the framework is not installed (the message names the extra).

    Example::

        outcomes = verify("torch", [opsdk.ops.get("example.swish")])
        assert all(o.passed for o in outcomes)
    """
    import importlib

    require(framework)
    module, name = _CHECKS[framework]
    check = getattr(importlib.import_module(f"{__package__}.{module}"), name)
    outcomes = []
    for info in ops:
        try:
            outcomes.extend(check(info))
        except Exception as error:  # an op that cannot be exported is a failed row, not a crash
            from .outcome import Outcome, failure_text

            outcomes.append(Outcome(info.qualname, framework, "export", 0, False,
                                    failure_text(error)))
    return outcomes


def render(outcomes, quiet=False):
    """A plain-text table: one row per op and check (samples folded), failures spelled out."""
    rows, failures = {}, []
    for o in outcomes:
        key = (o.op, o.check)
        passed, total = rows.get(key, (0, 0))
        rows[key] = (passed + o.passed, total + 1)
        if not o.passed:
            failures.append(o)
    width = max([len(op) for op, _ in rows] + [2])
    check_width = max([len(c) for _, c in rows] + [5])
    lines = [f"{'op':<{width}}  {'check':<{check_width}}  result"]
    for (op, check), (passed, total) in rows.items():
        if quiet and passed == total:
            continue
        verdict = "PASS" if passed == total else "FAIL"
        lines.append(f"{op:<{width}}  {check:<{check_width}}  {verdict} ({passed}/{total} samples)")
    for o in failures:
        lines.append(f"\nFAIL {o.op} {o.check} (sample {o.sample}, {o.framework}):\n  {o.detail}")
    n_failed = len(failures)
    framework = outcomes[0].framework if outcomes else "?"
    lines.append(f"\n{len(outcomes) - n_failed} passed, {n_failed} failed ({framework})")
    return "\n".join(lines)

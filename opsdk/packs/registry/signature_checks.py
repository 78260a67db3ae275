"""Checks that an op's input specs and attrs fit the parameters of its Function's ``forward``."""
import inspect

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _describe(function, signature):
    return f"{function.__name__}.forward{signature}"


def call_problems(function, n_inputs, attrs):
    """What keeps ``forward(ctx, *inputs, **attrs)`` from binding; empty if it binds or is unreadable."""
    try:
        signature = inspect.signature(function.forward)
    except (TypeError, ValueError):
        return []
    params = list(signature.parameters.values())[1:]  # the first one receives ctx
    positional = [p for p in params if p.kind in _POSITIONAL]
    kinds = {p.kind for p in params}
    where = _describe(function, signature)
    if n_inputs > len(positional) and inspect.Parameter.VAR_POSITIONAL not in kinds:
        return [f"inputs has {n_inputs} specs but {where} takes {len(positional)} "
                "argument(s) after ctx"]
    problems = []
    covered = {p.name for p in positional[:n_inputs]}
    settable = {p.name for p in params[n_inputs:] if p.kind != inspect.Parameter.POSITIONAL_ONLY
                and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)}
    for key in attrs:
        if key in covered:
            problems.append(f"attrs['{key}'] sets an argument that inputs already supplies in {where}")
        elif key not in settable and inspect.Parameter.VAR_KEYWORD not in kinds:
            problems.append(f"attrs['{key}'] is not a parameter of {where}")
    for p in params[n_inputs:]:
        required = p.default is inspect.Parameter.empty and p.kind not in (
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        if required and p.name not in attrs:
            problems.append(f"{where} parameter '{p.name}' gets no value; expected: a TensorSpec "
                            "in inputs or an entry in attrs")
    return problems

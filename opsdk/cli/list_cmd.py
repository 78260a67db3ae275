"""``opsdk list``: registered ops (pack, version, backends that run here) and packs that failed to load."""
import json

import click

_TIMEOUT_VAR = "OPSDK_PLUGIN_TIMEOUT"
_STAGE_HINTS = {
    "import": "the pack did not import: fix the error, or reinstall it (pip install -e DIR)",
    "hook": "its register_ops hook raised: fix the pack's code where the traceback points",
    "register": "it registered an op wrongly: fix the register(...) call the message names",
}


def failure_hint(failure):
    """What to do about a pack that failed to load: by what went wrong, else by the stage."""
    from .. import errors

    error = failure.error
    if isinstance(error, errors.PackNotInstalledError):
        return _not_installed_hint(error)
    uninstall = f"pip uninstall {failure.distribution}" if failure.distribution else \
        "unregister it"
    if isinstance(error, errors.PackNameClashError):
        dist = failure.distribution or "the pack registered in-process"
        return (f"two packs are named '{failure.pack}'; rename the entry point of one of them "
                f"([project.entry-points.opsdk] in its pyproject.toml) and reinstall it, or "
                f"uninstall one: pip uninstall {dist}")
    if isinstance(error, errors.PluginTimeoutError):
        return ("the traceback shows where its import waits (the network, a lock, input?); "
                f"fix the pack, raise {_TIMEOUT_VAR} if it is only slow, or {uninstall}")
    if isinstance(error, errors.PluginCrashError) and (error.exit_code or 0) < 0:
        return ("the traceback shows the last Python line before the crash; fix the pack (its "
                f"native code, or what it passes to it), or {uninstall}")
    if isinstance(error, errors.PluginCrashError):
        return ("its import calls os._exit() (or its native code exit()): a pack must never end "
                f"the process; fix the pack, or {uninstall}")
    if isinstance(error, errors.PluginTamperError):
        return (f"the pack must not assign opsdk's names; have it register ops through "
                f"register(...) (and wrap what it needs in its own functions), or {uninstall}")
    return _STAGE_HINTS.get(failure.stage, "see the traceback: opsdk doctor --verbose")


def _not_installed_hint(error):
    import difflib

    close = difflib.get_close_matches(error.name, error.installed, n=1, cutoff=0.6)
    guess = f"did you mean '{close[0]}'? " if close else ""
    return (f"correct OPSDK_LOAD_PLUGINS: {guess}installed packs: {', '.join(error.installed)} "
            f"(or unset it to load every installed pack; or install '{error.name}')")


def backend_status(op):
    """``{backend: None}`` for each backend of ``op`` that runs here, ``{backend: why}`` for the others."""
    from ..kernels import cuda_status
    from ..kernels.cbuild import c_buildable

    status = {}
    for backend in op.backends:
        device = "gpu" if backend == "cuda" else "cpu"
        kernels = [k for k in op.kernels if backend in k.backends]
        missing = [k for k in kernels if backend not in k.available_backends(device)]
        if not missing:
            status[backend] = None
        elif backend == "cuda":
            status[backend] = cuda_status()[1]
        else:
            status[backend] = c_buildable(missing[0].sources["c"])[1]
    return status


def c_origins(kernels, memo=None):
    """``{kernel name: Origin}`` of the C kernels among kernels: where each one's build comes from
    here (prebuilt in the wheel, the cache, a compile on first call, python) and why."""
    from ..kernels.cbuild import c_origin

    memo = {} if memo is None else memo  # kernels share sources: one lookup per source
    found = {}
    for kernel in kernels:
        source = kernel.sources.get("c")
        if source is not None:
            if id(source) not in memo:
                memo[id(source)] = c_origin(source)
            found[kernel.name] = memo[id(source)]
    return found


def cuda_origins(kernels, memo=None):
    """``{kernel name: Origin}`` of the CUDA kernels among kernels: where each one's module comes
    from here (a prebuilt cubin or PTX of the wheel, a compile by CuPy on first call, the
    simulator) and why."""
    from ..kernels.cuda import cuda_origin

    memo = {} if memo is None else memo
    found = {}
    for kernel in kernels:
        source = kernel.sources.get("cuda")
        if source is not None:
            if ("cuda", id(source)) not in memo:
                memo["cuda", id(source)] = cuda_origin(source)
            found[kernel.name] = memo["cuda", id(source)]
    return found


def _table(headers, rows):
    """Rows as left-aligned columns under their headers."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    line = lambda cells: "  ".join(f"{c!s:<{w}}" for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(headers), *(line(r) for r in rows)])


def _op_record(op, status, memo):
    origins, cuda = c_origins(op.kernels, memo), cuda_origins(op.kernels, memo)
    return {"c_kernels": {name: {"from": o.kind, "why": o.why} for name, o in origins.items()},
            "cuda_kernels": {name: {"from": o.kind, "why": o.why} for name, o in cuda.items()},
            "qualname": op.qualname, "name": op.name, "pack": op.pack, "version": op.pack_version,
            "distribution": op.distribution, "backends": list(op.backends),
            "available": [b for b, why in status.items() if why is None],
            "unavailable": {b: why for b, why in status.items() if why is not None},
            "dtypes": list(op.dtypes), "double_backward": op.double_backward, "summary": op.summary}


def _failure_record(failure):
    return {"pack": failure.pack, "distribution": failure.distribution, "version": failure.version,
            "stage": failure.stage, "error_type": type(failure.error).__name__,
            "error": str(failure.error), "hint": failure_hint(failure), "traceback": failure.traceback}


def collect():
    """Everything ``opsdk list`` shows, as plain data (the ``--json`` output)."""
    from ..version import __version__
    from ..packs.loading import get_registry

    registry = get_registry()
    memo = {}
    return {
        "opsdk_version": __version__,
        "ops": [_op_record(op, backend_status(op), memo) for op in registry.ops()],
        "packs": [{"name": p.name, "distribution": p.distribution, "version": p.version,
                   "ops": [op.name for op in p.ops]} for p in registry.packs()],
        "failures": [_failure_record(f) for f in registry.failures()],
    }


def _source(record):
    """'distribution version' of a pack or failure record, or 'in-process'."""
    if not record["distribution"]:
        return "in-process"
    return f"{record['distribution']} {record['version'] or ''}".strip()


def _c_from(record, field="c_kernels"):
    """Where an op's C (or CUDA) kernels come from: prebuilt, cache, compile or python; cubin, ptx,
    prebuilt, compile or simulator ('-' without any)."""
    kinds = dict.fromkeys(k["from"] for k in record[field].values())
    return "+".join(kinds) or "-"


def _shorten(text, width):
    return text if len(text) <= width else text[: width - 3].rstrip() + "..."


def _render(data):
    ops, packs, failures = data["ops"], data["packs"], data["failures"]
    out = []
    if ops:
        rows = [(o["qualname"], o["version"] or "-", " ".join(o["backends"]),
                 " ".join(o["available"]) or "(none)", _c_from(o), _c_from(o, "cuda_kernels"),
                 "yes" if o["double_backward"] else "no", _shorten(o["summary"], 60)) for o in ops]
        out.append(_table(("OP", "VERSION", "BACKENDS", "RUNS HERE", "C FROM", "CUDA FROM", "2ND ORDER",
                           "SUMMARY"), rows))
    else:
        out.append("No ops registered: install an op pack (pip install ...), "
                   "or make one: opsdk new-pack NAME")
    missing = {}
    for o in ops:
        missing.update(o["unavailable"])
    if missing:
        out.append("\nNot available here:")
        out += [f"  {backend}: {why}" for backend, why in sorted(missing.items())]
    out.append(f"\nPacks ({len(packs)}):")
    for p in packs:
        source = _source(p)
        out.append(f"  {p['name']:<16} {source:<28} {len(p['ops'])} op(s)")
    if failures:
        out.append(f"\nFailed packs ({len(failures)}):")
        for f in failures:
            source = _source(f)
            out.append(f"  {f['pack']} ({source}) failed at {f['stage']}: {f['error_type']}: {f['error']}")
            out.append(f"    fix: {f['hint']} (traceback: opsdk doctor --verbose)")
    return "\n".join(out)


@click.command("list", short_help="List registered ops, the backends that run here, failed packs.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (ops, packs, failures) instead of a table.")
def list_cmd(as_json):
    """List every registered op: its pack, version, backends and those that run here.

    Packs that failed to load are listed with their error and a fix.
    """
    from ..printable import printable

    data = collect()
    # a pack's summary, version or error message may hold ESC, BEL, NUL: shown as escapes
    click.echo(json.dumps(data, indent=2) if as_json else printable(_render(data)))

"""Planning ``opsdk new-op``: an op module (and its kernels and tests) added to an existing pack."""
from pathlib import Path

from ..errors import NotAPackError, ScaffoldError, SignatureError
from .answers import ANSWERS_FILE, dump_answers, find_pack_root, read_answers
from .context import op_context, sdk_version
from .formula.worker import bounded_formula_context
from .locate import template_version, templates_dir
from .names import BACKENDS, check_backends, check_op_name
from .ops_list import add_op, listed_ops
from .plan import UPDATE, Plan, PlannedFile, cd_step
from .render import render_tree


# --kind -> the template directory it renders (each writes python, C and CUDA kernels)
KINDS = {"elementwise": "op", "multi": "op-multi", "rows": "op-rows"}
FORMULA_TEMPLATE = "op-formula"
SIGNATURE_TEMPLATE = "op-signature"


def _template_and_context(kind, formula, op, backends, signature=None):
    """The template directory and the op's own variables for ``kind``, ``formula`` or ``signature``."""
    if kind not in KINDS:
        raise ScaffoldError(f"unknown kind {kind!r}; expected: one of {', '.join(KINDS)}; got: {kind!r}")
    if signature is not None:
        from .signature import parse_signature
        from .skeleton import signature_context

        if formula is not None or kind != "elementwise":
            raise SignatureError(f"--signature writes a skeleton of any shape; expected: --signature "
                                 f"without --formula or --kind; got: "
                                 f"{'--formula' if formula is not None else '--kind ' + kind} with it")
        parsed = parse_signature(signature)
        return SIGNATURE_TEMPLATE, {"kind": "signature", **signature_context(op, parsed, backends)}, []
    if formula is None:
        return KINDS[kind], {"kind": kind}, []
    if kind != "elementwise":
        raise ScaffoldError(f"--formula writes an elementwise op; expected: --kind elementwise (or no "
                            f"--kind) with --formula; got: --kind {kind}")
    context = bounded_formula_context(op, formula["text"], formula.get("inputs") or ("x",),
                                      formula.get("attrs"), backends, formula.get("domain"),
                                      formula.get("timeout"))
    return FORMULA_TEMPLATE, {"kind": kind, **context}, context["notes"]


def plan_op(op, pack_dir=".", backends=("python",), force=False, kind="elementwise", formula=None,
            signature=None):
    """Everything ``opsdk new-op OP`` would write into the pack holding ``pack_dir``.

    Args:
        op: the op's name.
        pack_dir: the pack's directory or any directory inside it.
        backends: kernels to generate among python, c, cuda (python always is).
        force: accept the name of an op the pack has (its files are regenerated).
        kind: what the example op is: ``"elementwise"`` (one input, one output, an attribute),
            ``"multi"`` (several inputs and outputs) or ``"rows"`` (a reduction over the last
            axis with a per-feature weight).
        formula: ``{"text": EXPR, "inputs": [...], "attrs": {name: value}, "domain": (lo, hi)}``
            to write an elementwise op computing EXPR, its derivatives derived by SymPy (in a
            child process given ``"timeout"`` seconds, default ``$OPSDK_FORMULA_TIMEOUT``).
        signature: ``"x: float[N, C], w: float[C] -> y: float[N, C]; alpha: float = 0.5"`` to write
            a skeleton of those inputs, outputs and attributes (opsdk.scaffold.signature), its
            placeholder maths in the kernels and the reference only.

    Returns:
        Plan rooted at the pack: the op's module, kernel sources and tests, the pack's
        ``ops/__init__.py`` with the op added to OPS, and the updated answers file.

    Raises:
        NotAPackError: ``pack_dir`` is not inside a pack made by ``opsdk new-pack``.
        InvalidNameError: a bad op name, an op the pack already has, an unknown backend.
        FormulaError: the formula cannot be used (the message names the token), or deriving it
            ran out of time or memory.
        SignatureError: the signature cannot be used (the message names the part).
        ScaffoldError: the OPS tuple cannot be found or edited, or an unknown kind.

    Example::

        plan = plan_op("swish", "mypack", backends=("python", "c"))
    """
    backends = check_backends(backends)
    root = find_pack_root(pack_dir)
    answers = read_answers(root)
    pack = answers["pack"]
    ops_init = Path("src", pack["package"], "ops", "__init__.py")
    try:
        ops_text = (root / ops_init).read_text(encoding="utf-8")
    except OSError as error:
        raise NotAPackError(f"pack '{pack['name']}' in {root} has no readable {ops_init.as_posix()}; "
                            f"expected: the layout `opsdk new-pack` writes; got: {error}") from None
    modules = {p.stem for p in (root / ops_init.parent).glob("*.py") if p.stem != "__init__"}
    existing = set(listed_ops(ops_text, ops_init.as_posix())) | set(answers["ops"]) | modules
    check_op_name(op, pack["name"], existing, force)
    template, own, notes = _template_and_context(kind, formula, op, backends, signature)
    templates = templates_dir()
    version = template_version(templates)
    context = {**op_context(pack, op, backends, version), **own}
    files = [PlannedFile(path, content) for path, content in render_tree(templates / template, context)]
    every = check_backends(BACKENDS)
    if signature is not None:  # its C and CUDA variables exist for the backends asked for only
        own = _template_and_context(kind, formula, op, every, signature)[1]
    every_backend = {**op_context(pack, op, every, version), **own}
    stale = _stale_files(root, templates / template, every_backend, files)
    new_ops_text = add_op(ops_text, op, ops_init.as_posix())
    if new_ops_text != ops_text:
        files.append(PlannedFile(ops_init.as_posix(), new_ops_text.encode("utf-8"), UPDATE))
    answers["ops"][op] = {"backends": list(backends), "kind": own["kind"], "opsdk_version": sdk_version(),
                          "template_version": version}
    if signature is not None:
        answers["ops"][op]["signature"] = own["signature"]
    if formula is not None:
        answers["ops"][op]["formula"] = {"text": own["formula"], "inputs": own["inputs"],
                                         "attrs": dict((n, float(v)) for n, v in own["attrs"]),
                                         "domain": [float(v) for v in own["domain"]]}
    files.append(PlannedFile(ANSWERS_FILE, dump_answers(answers), UPDATE))
    what = "formula" if formula is not None else own["kind"]
    steps = (
        *(f"note: {note}" for note in notes),
        *cd_step(root),
        "pip install -e .            # once, if the pack is not installed yet",
        f"pytest                      # tests/ops/test_{op}.py and the checks of every op",
        f"opsdk check {pack['name']}.{op}",
    )
    return Plan(root, files, summary=f"op '{pack['name']}.{op}' ({what}; {', '.join(backends)})", stale=stale,
                next_steps=steps)


def _stale_files(root, template, every, files):
    """Files of the op that another backend choice generates, that ``files`` lacks and that are on
    disk: e.g. the .c of an op regenerated without --backend c. ``every``: the op's template
    variables with every backend."""
    wanted = {f.path for f in files}
    return tuple(path for path, _ in render_tree(template, every)
                 if path not in wanted and (root / path).exists())

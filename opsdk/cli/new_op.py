"""``opsdk new-op OP``: an op (Function, kernels, registration, tests) added to a pack."""
import click

BACKENDS = ("python", "c", "cuda")


@click.command("new-op", short_help="Add an op (Function, kernels, tests) to a pack.")
@click.argument("name")
@click.option("--backend", "-b", "backends", multiple=True, type=click.Choice(BACKENDS),
              help="A kernel to generate; repeat for several. python is always generated: "
                   "the other backends are verified against it.")
@click.option("--pack", "pack_dir", type=click.Path(file_okay=False), default=".",
              help="The pack's directory, or any directory inside it (default: the current one).")
@click.option("--force", is_flag=True,
              help="Overwrite files that already exist (regenerates an existing op).")
@click.option("--dry-run", is_flag=True, help="List the files it would write; write nothing.")
@click.option("--kind", type=click.Choice(("elementwise", "multi", "rows")), default="elementwise",
              show_default=True, help="The example to start from: elementwise (one input, one output, "
              "an attribute: softplus), multi (elementwise with several inputs and outputs: LLTM's "
              "cell) or rows (a reduction over the last axis with a per-feature weight: RMSNorm). "
              "Each writes its maths once in Python and once as C for one element (or row); the SDK "
              "writes the C and CUDA kernels.")
@click.option("--formula", metavar="EXPR", help="Write an elementwise op computing EXPR, e.g. "
              "'x * tanh(log(1 + exp(x)))': gradient and second derivatives derived with SymPy, "
              "kernels generated (needs opsdk[formula]).")
@click.option("--input", "inputs", multiple=True, metavar="NAME",
              help="A tensor input of --formula, in order (default: x); repeat for several.")
@click.option("--attr", "attrs", multiple=True, metavar="NAME=VALUE",
              help="A float attribute of --formula and its default, e.g. beta=1.0 (other symbols "
                   "of the formula are attributes with default 1.0).")
@click.option("--domain", metavar="LOW,HIGH", help="Where --formula is verified (default: the first "
              "of [-3, 3], [0.1, 3], ... where it and its derivatives are finite).")
@click.option("--signature", metavar="SIG", help="Write a skeleton of these inputs, outputs and "
              "attributes, e.g. 'x: float[N, C], w: float[C] -> y: float[N, C], index: int64[N]; "
              "alpha: float = 0.5' (the same symbol is the same size): its placeholder maths sits in "
              "the kernels and the reference only.")
def new_op(name, backends, pack_dir, force, dry_run, kind, formula, inputs, attrs, domain, signature):
    """Add the op NAME to a pack made by `opsdk new-pack`.

    Writes src/<package>/ops/NAME.py (the Function, its maths and its registration; the C and
    CUDA kernels are written by the SDK from the C it gives for one element or row, or are
    NAME.c and NAME.cu beside it for --signature), and tests/ops/test_NAME.py, and lists NAME in
    the pack's ops/__init__.py. The op computes an example (softplus; --kind multi: LLTM's
    cell; --kind rows: RMSNorm) whose generated tests, derived from its reference, pass as
    generated: replace the maths with yours.

    With --formula, the op computes that formula instead, its derivatives derived by SymPy.
    With --signature, the op has those inputs, outputs and attributes and placeholder maths of
    their shapes, written in its kernels and its reference only (docs/writing-ops.md).

    \b
    Example:
      opsdk new-op swish --backend c --backend cuda
      opsdk new-op cell --kind multi --backend c --backend cuda
      opsdk new-op mish --formula "x * tanh(log(1 + exp(x)))" --backend c
      opsdk new-op nearest --signature "x: float[N, D], centers: float[K, D] -> dist: float[N], index: int64[N]"
    """
    from ..scaffold import plan_op
    from ..scaffold.command import execute

    def make_plan():
        if signature is not None:  # refused at once, naming the part, wherever it is run
            from ..scaffold.signature import parse_signature

            parse_signature(signature)
        return plan_op(name, pack_dir, backends, force, kind=kind,
                       formula=_formula_answers(formula, inputs, attrs, domain), signature=signature)

    execute(make_plan, force, dry_run)


def _formula_answers(formula, inputs, attrs, domain):
    """The ``formula=`` of plan_op from the options (None without --formula)."""
    from ..errors import FormulaError

    if formula is None:
        if inputs or attrs or domain:
            raise FormulaError("--input, --attr and --domain describe a --formula; expected: "
                               "--formula EXPR with them; got: no --formula")
        return None
    from ..scaffold.formula import parse_attr

    bounds = None
    if domain is not None:
        try:
            bounds = tuple(float(v) for v in domain.split(","))
        except ValueError:
            bounds = ()
        if len(bounds) != 2:
            raise FormulaError(f"--domain {domain!r} is not LOW,HIGH; expected: e.g. --domain -3,3; "
                               f"got: {domain!r}")
    return {"text": formula, "inputs": list(inputs) or ["x"], "attrs": dict(parse_attr(a) for a in attrs),
            "domain": bounds}

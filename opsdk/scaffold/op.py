"""Planning ``opsdk new-op``: an op module (and its kernels and tests) added to an existing pack."""
from pathlib import Path

from ..errors import NotAPackError
from .answers import ANSWERS_FILE, dump_answers, find_pack_root, read_answers
from .context import op_context, sdk_version
from .locate import template_version, templates_dir
from .names import BACKENDS, check_backends, check_op_name
from .ops_list import add_op, listed_ops
from .plan import UPDATE, Plan, PlannedFile
from .render import render_tree


def plan_op(op, pack_dir=".", backends=("python",), force=False):
    """Everything ``opsdk new-op OP`` would write into the pack holding ``pack_dir``.

    Args:
        op: the op's name.
        pack_dir: the pack's directory or any directory inside it.
        backends: kernels to generate among python, c, cuda (python always is).
        force: accept the name of an op the pack has (its files are regenerated).

    Returns:
        Plan rooted at the pack: the op's module, kernel sources and tests, the pack's
        ``ops/__init__.py`` with the op added to OPS, and the updated answers file.

    Raises:
        NotAPackError: ``pack_dir`` is not inside a pack made by ``opsdk new-pack``.
        InvalidNameError: a bad op name, an op the pack already has, an unknown backend.
        ScaffoldError: the OPS tuple cannot be found or edited.

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
    templates = templates_dir()
    version = template_version(templates)
    context = op_context(pack, op, backends, version)
    files = [PlannedFile(path, content) for path, content in render_tree(templates / "op", context)]
    stale = _stale_files(root, templates, pack, op, version, files)
    new_ops_text = add_op(ops_text, op, ops_init.as_posix())
    if new_ops_text != ops_text:
        files.append(PlannedFile(ops_init.as_posix(), new_ops_text.encode("utf-8"), UPDATE))
    answers["ops"][op] = {"backends": list(backends), "opsdk_version": sdk_version(),
                          "template_version": version}
    files.append(PlannedFile(ANSWERS_FILE, dump_answers(answers), UPDATE))
    return Plan(root, files, summary=f"op '{pack['name']}.{op}' ({', '.join(backends)})", stale=stale, next_steps=(
        f"cd {root}",
        "pip install -e .            # once, if the pack is not installed yet",
        f"pytest                      # tests/ops/test_{op}.py and the checks of every op",
        f"opsdk check {pack['name']}.{op}",
    ))


def _stale_files(root, templates, pack, op, version, files):
    """Files of the op that another backend choice generates, that ``files`` lacks and that are on
    disk: e.g. the .c of an op regenerated without --backend c."""
    every = op_context(pack, op, check_backends(BACKENDS), version)
    wanted = {f.path for f in files}
    return tuple(path for path, _ in render_tree(templates / "op", every)
                 if path not in wanted and (root / path).exists())

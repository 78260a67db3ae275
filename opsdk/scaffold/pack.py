"""Planning ``opsdk new-pack``: a pip-installable op pack rendered from ``templates/pack``."""
from pathlib import Path

from ..errors import ScaffoldError
from .answers import ANSWERS_FILE, dump_answers, new_answers
from .context import pack_context, sdk_version
from .locate import template_version, templates_dir
from .names import check_pack_name
from .paths import check_directory, check_lengths
from .plan import Plan, PlannedFile, cd_step
from .render import render_tree


def plan_pack(name, directory=None):
    """Everything ``opsdk new-pack NAME`` would write, rendered and checked but not written.

    Args:
        name: the pack's name (entry-point name, ops' prefix, package name).
        directory: where the pack goes (default: ``./NAME``); it may exist.

    Returns:
        Plan rooted at the pack's directory: the rendered templates and ``.opsdk-answers.json``.

    Raises:
        InvalidNameError: the name cannot be used.
        InvalidPathError: ``directory`` is empty, or too long for the file system.
        ScaffoldError: ``directory`` exists and is not a directory.
        TemplateError: the templates are missing or broken.

    Example::

        plan = plan_pack("mypack")
        sorted(plan.paths())        # ['.gitignore', '.opsdk-answers.json', 'README.md', ...]
    """
    package, distribution = check_pack_name(name)
    check_directory(directory, "--dir")
    root = Path(name if directory is None else directory).absolute()
    check_lengths([root], f"pack '{name}'")
    if root.exists() and not root.is_dir():
        raise ScaffoldError(f"cannot create pack '{name}' in {root}: it is a file; expected: a "
                            f"directory (or nothing) there; got: a file")
    templates = templates_dir()
    version = template_version(templates)
    pack = {"name": name, "package": package, "distribution": distribution}
    files = [PlannedFile(path, content)
             for path, content in render_tree(templates / "pack", pack_context(pack, version))]
    files.append(PlannedFile(ANSWERS_FILE, dump_answers(new_answers(pack, sdk_version(), version))))
    return Plan(root, files, summary=f"pack '{name}' (distribution {distribution})", next_steps=(
        *cd_step(root),
        "opsdk new-op my_op --backend python     # add an op (--backend c / cuda for kernels)",
        "pip install -e .                        # then `opsdk list` shows the pack",
        "pytest                                  # its generated tests",
    ))

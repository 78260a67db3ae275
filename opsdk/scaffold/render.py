"""Rendering a template directory in memory: names are templates, only ``*.jinja`` contents render."""
import os
from pathlib import Path

from ..errors import TemplateError
from .escape import FILTERS

SUFFIX = ".jinja"
_SKIPPED_DIRS = {"__pycache__"}


def _environment(root, lenient=False):
    import jinja2  # only the scaffolding commands pay for importing Jinja

    # trim/lstrip: a line holding only a {% ... %} tag leaves nothing behind in the output
    undefined = jinja2.ChainableUndefined if lenient else jinja2.StrictUndefined
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(root)), undefined=undefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                             autoescape=False)
    env.filters.update(FILTERS)
    return env


def _render(env, render, where):
    import jinja2

    try:
        return render()
    except jinja2.TemplateSyntaxError as error:
        raise TemplateError(f"template {where}, line {error.lineno}: {error.message}; expected: "
                            "valid Jinja; got: a syntax error") from None
    except jinja2.UndefinedError as error:
        raise TemplateError(f"template {where}: {error.message}; expected: only the variables "
                            "templates/README.md lists") from None


def _render_name(env, part, context, where):
    if "{" not in part:  # a plain name: compiling it as a template costs milliseconds each
        return part
    name = _render(env, lambda: env.from_string(part).render(context), f"name of {where}")
    if "/" in name or "\\" in name or name in (".", ".."):
        raise TemplateError(f"template {where}: its name renders to {name!r}; expected: one file "
                            "or directory name")
    return name


def render_tree(root, context, lenient=False, only=None):
    """Render every file under ``root`` with ``context``.

    File and directory names are rendered; a name that renders empty drops that file (or the
    whole directory). Files ending in ``.jinja`` are rendered without that suffix; any other
    file is copied byte for byte.

    Args:
        root: a template directory (``templates/pack`` or ``templates/op``).
        context: the template variables.
        lenient: render variables ``context`` lacks as nothing, instead of refusing them (to read
            what a template binds without every variable, see ``reserved``).
        only: the output paths wanted (the others are not rendered); default: all.

    Returns:
        list of ``(relative POSIX path, bytes)``, sorted by path.

    Raises:
        TemplateError: a syntax error, an undefined variable, or a name that is not a file name.

    Example::

        render_tree(templates_dir() / "pack", {"name": "mypack", ...})
    """
    root = Path(root)
    if not root.is_dir():
        raise TemplateError(f"template directory {root} does not exist; expected: a directory of "
                            "templates; got: nothing there (reinstall opsdk)")
    env = _environment(root, lenient)
    rendered = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        relative = Path(folder).relative_to(root).parts
        out_dir = [_render_name(env, part, context, "/".join(relative)) for part in relative]
        if any(not part for part in out_dir):
            dirs[:] = []
            continue
        for filename in sorted(files):
            if filename.endswith((".pyc", ".pyo")):
                continue
            source = "/".join((*relative, filename))
            name = _render_name(env, filename, context, source)
            if only is not None and "/".join((*out_dir, name.removesuffix(SUFFIX))) not in only:
                continue
            if name.endswith(SUFFIX):
                name = name[: -len(SUFFIX)]
                if not name:
                    continue
                template = _render(env, lambda: env.get_template(source), source)
                content = _render(env, lambda: template.render(context), source).encode("utf-8")
            elif not name:
                continue
            else:
                content = (Path(folder) / filename).read_bytes()
            rendered.append(("/".join((*out_dir, name)), content))
    return sorted(rendered)

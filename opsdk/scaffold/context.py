"""The variables the templates see (templates/README.md lists them), checked before any is used.

Names land in generated Python, TOML, Markdown, C and CUDA unescaped, so they must be
identifiers (distribution names PEP 508 names, versions versions), wherever they came from: the
command line, the API, or a pack's answers file. Free text (a formula) is escaped by the
templates' filters (``escape``).
"""
from ..errors import TemplateError
from .names import DISTRIBUTION, VERSION, class_name

PACK_VERSION = "0.1.0"


def sdk_version():
    """The running opsdk's version, recorded in packs and used as their minimum requirement."""
    from .. import __version__

    return __version__


_IDENTIFIERS = ("name", "package", "op", "class_name")


def check_context(context):
    """Raise TemplateError unless every name in ``context`` is safe to write unescaped."""
    def refuse(key, value, expected):
        raise TemplateError(f"template variable {key} = {value!r} cannot be written into code; "
                            f"expected: {expected}; got: {value!r}")

    for key in _IDENTIFIERS:
        value = context.get(key, "ok")
        if not isinstance(value, str) or not value.isidentifier() or not value.isascii():
            refuse(key, value, "an ASCII Python identifier")
    if "distribution" in context and not DISTRIBUTION.match(str(context["distribution"])):
        refuse("distribution", context["distribution"], "a PEP 508 distribution name")
    for key in ("version", "opsdk_version", "template_version"):
        if key in context and not VERSION.match(str(context[key])):
            refuse(key, context[key], "a version such as 0.1.0")
    return context


def pack_context(pack, template_version):
    """Variables of ``templates/pack``: the pack's names and the versions it is made with."""
    return check_context({"name": pack["name"], "package": pack["package"],
                          "distribution": pack["distribution"], "version": PACK_VERSION,
                          "opsdk_version": sdk_version(), "template_version": template_version})


def op_context(pack, op, backends, template_version):
    """Variables of ``templates/op``: the pack's, plus the op's name, class and backends."""
    return check_context({**pack_context(pack, template_version), "op": op, "class_name": class_name(op),
                          "backends": list(backends), "has_c": "c" in backends,
                          "has_cuda": "cuda" in backends})

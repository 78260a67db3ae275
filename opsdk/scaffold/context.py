"""The variables the templates see (templates/README.md lists them)."""
from .names import class_name

PACK_VERSION = "0.1.0"


def sdk_version():
    """The running opsdk's version, recorded in packs and used as their minimum requirement."""
    from .. import __version__

    return __version__


def pack_context(pack, template_version):
    """Variables of ``templates/pack``: the pack's names and the versions it is made with."""
    return {"name": pack["name"], "package": pack["package"], "distribution": pack["distribution"],
            "version": PACK_VERSION, "opsdk_version": sdk_version(),
            "template_version": template_version}


def op_context(pack, op, backends, template_version):
    """Variables of ``templates/op``: the pack's, plus the op's name, class and backends."""
    return {**pack_context(pack, template_version), "op": op, "class_name": class_name(op),
            "backends": list(backends), "has_c": "c" in backends, "has_cuda": "cuda" in backends}

"""`opsdk list` and `opsdk doctor` say where each C kernel comes from here, and why: prebuilt in
the pack's wheel, the kernel cache, a compile on first call, or the python fallback."""
import json

import pytest

import opsdk.plugins

from helpers.compilers import no_compiler  # noqa: F401 - a fixture
from helpers.prebuilt_pack import built_package, installed_copy  # noqa: F401 - built_package: a fixture


@pytest.fixture
def prebuilt_pack(built_package, tmp_path, request):
    """A pack registered from an installed copy of the built package; (folder, pack name)."""
    name = "origin" + str(abs(hash(request.node.name)) % 10**8)
    folder = tmp_path / "site" / "pkg"
    module = installed_copy(built_package, folder, name)
    opsdk.plugins.register_pack(module, name=name)
    yield folder, name
    opsdk.plugins.unregister_pack(name)


def _c_kernels(invoke, name):
    data = json.loads(invoke("list", "--json").stdout)
    (op,) = [o for o in data["ops"] if o["qualname"] == f"{name}.twice"]
    return op["c_kernels"][f"{name}.twice"]


def _doctor(invoke, name):
    found = {f["name"]: f for f in json.loads(invoke("doctor", "--json").stdout)}
    return found[f"kernels {name}"]


def test_list_says_a_wheel_build_is_used_and_where_it_is(invoke, prebuilt_pack, no_compiler):
    folder, name = prebuilt_pack
    kernel = _c_kernels(invoke, name)
    assert kernel["from"] == "prebuilt" and str(folder / "_opsdk_prebuilt") in kernel["why"]
    row = next(line for line in invoke("list").stdout.splitlines() if line.startswith(f"{name}.twice"))
    assert row.split()[6] == "prebuilt"  # OP VERSION python c python c -> C FROM


def test_doctor_counts_the_packs_prebuilt_kernels(invoke, prebuilt_pack):
    _, name = prebuilt_pack
    finding = _doctor(invoke, name)
    assert finding["status"] == "ok" and finding["detail"] == "1 C kernel(s): 1 prebuilt in the wheel"


def test_an_edited_source_is_a_doctor_warning_and_compiles(invoke, prebuilt_pack):
    folder, name = prebuilt_pack
    source = folder / "csrc" / "twice.c"
    source.write_text(source.read_text() + "/* edited */\n")
    assert _c_kernels(invoke, name)["from"] == "compile"
    finding = _doctor(invoke, name)
    assert finding["status"] == "warn" and "edited since it was built" in finding["detail"]


def test_doctor_verbose_shows_each_kernels_origin(invoke, prebuilt_pack):
    _, name = prebuilt_pack
    out = invoke("doctor", "--verbose").stdout
    assert f"{name}.twice: prebuilt: prebuilt in the package:" in out


def test_no_compiler_and_no_build_is_the_python_fallback(invoke, in_test_pack, no_compiler):
    name = in_test_pack()
    assert _c_kernels(invoke, name)["from"] == "python"
    finding = _doctor(invoke, name)
    assert finding["status"] == "warn" and "no C compiler" in finding["detail"]


def test_a_cached_build_is_said_to_be_cached(invoke, in_test_pack):
    name = in_test_pack()
    assert _c_kernels(invoke, name)["from"] == "compile"
    assert invoke("build", "--pack", name).exit_code == 0
    assert _c_kernels(invoke, name)["from"] == "cache"

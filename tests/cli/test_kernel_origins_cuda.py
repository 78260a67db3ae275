"""`opsdk list` and `opsdk doctor` say where each CUDA kernel comes from here, and why: a cubin or
PTX of the pack's wheel (chosen for the GPU, or shipped where no GPU is), CuPy compiling the
source on first call, or the CPU simulator."""
import json
import sys
import types

import pytest

import opsdk.plugins
from opsdk.kernels import cuda

from helpers.prebuilt_cuda_pack import built_cuda_package, installed_copy  # noqa: F401 - a fixture


@pytest.fixture
def cuda_pack(built_cuda_package, tmp_path, request):
    """A pack registered from an installed copy of the built package; (folder, pack name)."""
    name = "cudaorigin" + str(abs(hash(request.node.name)) % 10**8)
    folder = tmp_path / "site" / "pkg"
    module = installed_copy(built_cuda_package, folder, name)
    opsdk.plugins.register_pack(module, name=name)
    yield folder, name
    opsdk.plugins.unregister_pack(name)


@pytest.fixture
def no_gpu(monkeypatch):
    monkeypatch.setattr(cuda, "_status", (False, "CuPy finds no CUDA device"))


@pytest.fixture
def gpu(monkeypatch):
    """A stand-in CuPy that sees one GPU of compute capability 9.0 (or is the simulator)."""
    module = types.ModuleType("cupy")
    module.cuda = types.SimpleNamespace(Device=lambda: types.SimpleNamespace(compute_capability="90"))
    monkeypatch.setitem(sys.modules, "cupy", module)
    monkeypatch.setattr(cuda, "_status", (True, ""))
    return module


def _origin(invoke, name):
    data = json.loads(invoke("list", "--json").stdout)
    (op,) = [o for o in data["ops"] if o["qualname"] == f"{name}.halve"]
    return op["cuda_kernels"][f"{name}.halve"]


def _doctor(invoke, name):
    found = {f["name"]: f for f in json.loads(invoke("doctor", "--json").stdout)}
    return found[f"cuda kernels {name}"]


def test_without_a_gpu_list_says_the_wheel_ships_a_build_and_where(invoke, cuda_pack, no_gpu):
    folder, name = cuda_pack
    kernel = _origin(invoke, name)
    assert kernel["from"] == "prebuilt" and str(folder / "_opsdk_prebuilt") in kernel["why"]
    assert "sm_80, sm_90, compute_80; no GPU here to choose one: CuPy finds no CUDA device" in kernel["why"]
    row = next(line for line in invoke("list").stdout.splitlines() if line.startswith(f"{name}.halve"))
    assert row.split()[5:7] == ["-", "prebuilt"]  # OP VERSION python cuda python -> C FROM, CUDA FROM


def test_on_a_gpu_list_names_the_cubin_it_loads(invoke, cuda_pack, gpu):
    folder, name = cuda_pack
    kernel = _origin(invoke, name)
    assert kernel["from"] == "cubin" and kernel["why"].startswith("prebuilt cubin sm_90 in the package: ")
    assert kernel["why"].endswith(".sm_90.cubin")


def test_on_the_simulator_list_says_it_runs_the_source(invoke, cuda_pack, gpu):
    gpu.__opsdk_simulator__ = True
    assert _origin(invoke, cuda_pack[1])["from"] == "simulator"


def test_an_edited_source_is_a_doctor_warning_and_compiles(invoke, cuda_pack, no_gpu):
    folder, name = cuda_pack
    source = folder / "cuda" / "halve.cu"
    source.write_text(source.read_text() + "// edited\n")
    kernel = _origin(invoke, name)
    assert kernel["from"] == "compile" and "compiled from the source by CuPy (NVRTC)" in kernel["why"]
    finding = _doctor(invoke, name)
    assert finding["status"] == "warn" and "edited since it was built" in finding["detail"]


def test_doctor_counts_the_packs_prebuilt_cuda_kernels(invoke, cuda_pack, no_gpu):
    finding = _doctor(invoke, cuda_pack[1])
    assert finding["status"] == "ok" and finding["detail"] == "1 CUDA kernel(s): 1 prebuilt in the wheel"


def test_a_source_install_compiles_on_first_call_with_no_warning(invoke, in_test_pack, no_gpu):
    name = in_test_pack()
    data = json.loads(invoke("list", "--json").stdout)
    (op,) = [o for o in data["ops"] if o["qualname"] == f"{name}.twice"]
    assert op["cuda_kernels"][f"{name}.twice"]["from"] == "compile"
    assert _doctor(invoke, name)["status"] == "ok"

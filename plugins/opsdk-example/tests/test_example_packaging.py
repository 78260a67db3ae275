"""The wheel ships the pack's code and the opsdk entry point; the kernels' C and CUDA sources are
written by the SDK from swish.py, so no source file ships."""
import pathlib
import shutil
import subprocess
import sys
import zipfile

PACK = pathlib.Path(__file__).resolve().parents[1]


def test_wheel_contains_kernel_sources_and_the_opsdk_entry_point(tmp_path):
    # build from a copy: setuptools writes build/ and *.egg-info next to the sources
    source = tmp_path / "src-copy"
    skip = shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "tests")
    shutil.copytree(PACK, source, ignore=skip)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path / "dist"), str(source)], check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("opsdk_example-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(archive.read(n).decode() for n in names if n.endswith("entry_points.txt"))
    assert "opsdk_example/swish.py" in names
    assert not [n for n in names if n.endswith((".c", ".cu"))]
    assert "[opsdk]\nexample = opsdk_example" in entry_points

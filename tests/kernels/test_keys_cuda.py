"""The key of a CUDA source's prebuilt PTX and cubins: everything CuPy would compile changes it,
where the package sits does not."""
import pytest

from opsdk.kernels import CudaSource
from opsdk.kernels.keys import cuda_include_dirs, prebuilt_cuda_key

CODE = '#include "h.cuh"\nextern "C" __global__ void k(float *y) { y[0] = V; }\n'


def _package(root, header="#define V 1\n"):
    (root / "cuda").mkdir(parents=True)
    (root / "cuda" / "k.cu").write_text(CODE)
    (root / "inc").mkdir()
    (root / "inc" / "h.cuh").write_text(header)
    return root


def _source(root, *options, names=()):
    return CudaSource(str(root / "cuda" / "k.cu"), options=(f"-I{root / 'inc'}", *options), names=names)


def _key(source):
    return prebuilt_cuda_key(source, source.read())


def test_the_key_does_not_depend_on_where_the_package_is(tmp_path):
    here, there = _package(tmp_path / "build"), _package(tmp_path / "site" / "pkg")
    assert _key(_source(here)) == _key(_source(there))


def test_an_include_folder_given_apart_from_its_flag_is_path_free_too(tmp_path):
    here, there = _package(tmp_path / "build"), _package(tmp_path / "site")
    sources = [CudaSource(str(r / "cuda" / "k.cu"), options=("-I", str(r / "inc"))) for r in (here, there)]
    assert _key(sources[0]) == _key(sources[1])


def test_the_headers_text_changes_the_key(tmp_path):
    one, two = _package(tmp_path / "a"), _package(tmp_path / "b", header="#define V 2\n")
    assert _key(_source(one)) != _key(_source(two))


@pytest.mark.parametrize("options, names", [(("-DV2",), ()), (("--use_fast_math",), ()), ((), ("k", "k2"))])
def test_options_and_kernel_names_change_the_key(tmp_path, options, names):
    root = _package(tmp_path / "p")
    assert _key(_source(root)) != _key(_source(root, *options, names=names))


def test_the_source_text_changes_the_key(tmp_path):
    root = _package(tmp_path / "p")
    source = _source(root)
    assert prebuilt_cuda_key(source, CODE) != prebuilt_cuda_key(source, CODE.replace("V;", "V + 1;"))


def test_include_folders_are_read_from_every_spelling_of_the_option():
    options = ("-Ia", "-I", "b", "--include-path=c", "--include-path", "d", "-DX", "-std=c++17")
    assert cuda_include_dirs(options) == ["a", "b", "c", "d"]

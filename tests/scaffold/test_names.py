"""Pack and op names: what is refused, with which message, and the names derived from them."""
import pytest

from opsdk.errors import InvalidNameError
from opsdk.scaffold.names import check_backends, check_op_name, check_pack_name, class_name


def test_pack_name_gives_package_and_distribution():
    assert check_pack_name("my_ops_zq") == ("my_ops_zq", "opsdk-my-ops-zq")


@pytest.mark.parametrize("name, says", [
    ("my-ops", "is not a valid name"),
    ("2ops", "is not a valid name"),
    ("", "is not a valid name"),
    ("café", "is not ASCII"),
    ("é", "is not ASCII"),
    ("CON", "reserved file name on Windows"),
    ("lpt1", "reserved file name on Windows"),
    ("class", "is a Python keyword"),
    ("match", "is a Python keyword"),
    ("_private", "starts with '_'"),
    ("opsdk", "is reserved"),
    ("tests", "is reserved"),
    ("json", "is a standard-library module"),
    ("numpy", "is already an importable module"),
])
def test_bad_pack_name_is_refused_with_the_reason(name, says):
    with pytest.raises(InvalidNameError, match=says) as caught:
        check_pack_name(name)
    assert f"got: {name!r}" in str(caught.value)


def test_non_ascii_name_suggests_its_ascii_spelling():
    with pytest.raises(InvalidNameError, match="e.g. 'naive_ops'"):
        check_pack_name("naïve_ops")


@pytest.mark.parametrize("check", [check_pack_name, lambda n: check_op_name(n, "pk")])
def test_a_name_too_long_for_file_names_is_refused_without_echoing_it_whole(check):
    with pytest.raises(InvalidNameError, match="is too long: 300 characters; expected: at most 64") as caught:
        check("a" * 300)
    assert len(str(caught.value)) < 200


def test_windows_reserved_op_name_is_refused():
    with pytest.raises(InvalidNameError, match="reserved file name on Windows"):
        check_op_name("aux", "pk")


def test_invalid_pack_name_message_suggests_a_valid_one():
    with pytest.raises(InvalidNameError, match="e.g. 'my_ops'"):
        check_pack_name("my-ops")


@pytest.mark.parametrize("name, says", [
    ("fused-swish", "is not a valid name"),
    ("lambda", "is a Python keyword"),
    ("_helper", "starts with '_'"),
    ("OPS", "is reserved"),
    ("register_all", "is reserved"),
])
def test_bad_op_name_is_refused_with_the_reason(name, says):
    with pytest.raises(InvalidNameError, match=says):
        check_op_name(name, "mypack")


def test_existing_op_name_is_refused_naming_the_pack_and_force():
    with pytest.raises(InvalidNameError, match="already an op of pack 'mypack'.*--force"):
        check_op_name("swish", "mypack", existing={"swish"})


def test_existing_op_name_is_accepted_with_force():
    check_op_name("swish", "mypack", existing={"swish"}, force=True)


def test_backends_always_include_python_in_canonical_order():
    assert check_backends(["cuda", "c"]) == ("python", "c", "cuda")
    assert check_backends([]) == ("python",)


def test_unknown_backend_is_refused_listing_the_known_ones():
    with pytest.raises(InvalidNameError, match="unknown backend 'rocm'; expected: one of python, c, cuda"):
        check_backends(["c", "rocm"])


@pytest.mark.parametrize("op, expected", [
    ("softplus", "Softplus"), ("fused_swi_glu", "FusedSwiGlu"), ("myOp", "MyOp"),
    ("kernel", "KernelOp"), ("tensor_spec", "TensorSpecOp"),
])
def test_class_name_is_camel_case_and_never_hides_an_import(op, expected):
    assert class_name(op) == expected


def test_a_directory_of_the_same_name_is_not_a_module_clash(tmp_path, monkeypatch):
    (tmp_path / "dirpack_zq").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert check_pack_name("dirpack_zq") == ("dirpack_zq", "opsdk-dirpack-zq")

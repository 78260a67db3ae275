"""Pack and op names: what is refused, with which message, and the names derived from them."""
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

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
    ("softplus", "Softplus"), ("fused_swi_glu", "FusedSwiGlu"), ("myOp", "MyOp"), ("kernel", "Kernel"),
])
def test_class_name_is_camel_case(op, expected):
    assert class_name(op) == expected


@pytest.mark.parametrize("op, says", [
    ("OP", "its Function class would be named 'OP'"),              # OP = Elementwise(...)
    ("kernel", "its Function class would be named 'Kernel'"),      # from opsdk.kernels import Kernel
    ("tensor_spec", "its Function class would be named 'TensorSpec'"),
    ("elementwise", "its Function class would be named 'Elementwise'"),
    ("importlib", "ops/__init__.py binds it"),
])
def test_an_op_whose_names_would_replace_the_templates_own_is_refused(op, says):
    with pytest.raises(InvalidNameError, match="is reserved") as caught:
        check_op_name(op, "mypack")
    assert says.replace("its", "the op's") in str(caught.value)


@pytest.mark.parametrize("op", ["value", "sigmoid", "register_op", "op", "numpy"])
def test_names_that_land_nowhere_the_templates_bind_are_accepted(op):
    check_op_name(op, "mypack")  # a module of the op's own and a class 'Value' clash with nothing


def test_an_installed_pack_s_name_is_refused_naming_its_entry_point(tmp_path, monkeypatch):
    from helpers.fake_dist import install_pack

    monkeypatch.syspath_prepend(str(tmp_path))
    install_pack(tmp_path, "opsdk-taken-zq", "taken_zq", "taken_zq_module", "")
    with pytest.raises(InvalidNameError, match="is taken by the installed pack 'taken_zq' .*e.g. 'taken_zq_ops'"):
        check_pack_name("taken_zq")


def test_an_installed_distribution_of_the_same_name_is_refused(tmp_path, monkeypatch):
    info = tmp_path / "opsdk_dist_zq-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: opsdk-dist-zq\nVersion: 1.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(InvalidNameError, match="taken by the installed distribution opsdk-dist-zq 1.0"):
        check_pack_name("dist_zq")


_BAD = st.one_of(
    st.text(max_size=80),
    st.text(alphabet="_-0123456789aé. Ω", max_size=12),
    st.sampled_from(["_", "__", "_1", "class", "match", "CON", "lpt9", "opsdk", "tests", "json", "numpy",
                     "OPS", "OP", "o_p", "importlib", "register_all", "kernel", "2ops", "a" * 300, "ß"]),
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_BAD)
def test_every_refusal_suggests_a_name_the_same_check_accepts(name):
    for check in (check_pack_name, lambda n: check_op_name(n, "mypack", existing={"my_op"})):
        try:
            check(name)
        except InvalidNameError as refusal:
            suggestion = re.search(r"e\.g\. '([^']*)'", str(refusal))
            assert suggestion, str(refusal)
            check(suggestion[1])  # raises if the suggestion is refused in turn


def test_a_directory_of_the_same_name_is_not_a_module_clash(tmp_path, monkeypatch):
    (tmp_path / "dirpack_zq").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert check_pack_name("dirpack_zq") == ("dirpack_zq", "opsdk-dirpack-zq")

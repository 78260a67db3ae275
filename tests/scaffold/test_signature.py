"""opsdk.scaffold.signature: the syntax of `new-op --signature`, what it accepts and how it refuses."""
import pytest

from opsdk.errors import ScaffoldError, SignatureError
from opsdk.scaffold.signature import parse_signature

from .conftest import _invoke_in

EXAMPLE = "x: float[N, C, L], bias: float[C] -> y: float[N, C, L], index: int64[N]; alpha: float = 0.5"


def test_the_example_parses_into_inputs_outputs_and_attributes():
    sig = parse_signature(EXAMPLE)
    assert [(t.name, t.dtype, t.dims) for t in sig.inputs] == [("x", "float", ("N", "C", "L")),
                                                                ("bias", "float", ("C",))]
    assert [(t.name, t.dtype, t.dims) for t in sig.outputs] == [("y", "float", ("N", "C", "L")),
                                                                 ("index", "int64", ("N",))]
    assert [(a.name, a.type, a.default) for a in sig.attrs] == [("alpha", "float", 0.5)]
    assert sig.text == EXAMPLE


def test_sample_sizes_are_distinct_and_never_a_fixed_size():
    sig = parse_signature("x: float[N, 3], w: float[K, 2] -> y: float[N, K]")
    assert sig.sample_sizes() == {"N": 4, "K": 5}
    assert sig.shape(sig.inputs[1]) == (5, 2)


def test_a_size_attribute_gives_an_output_size_no_input_has():
    sig = parse_signature("dy: float[R, W], index: int64[R] -> table: float[K, W]; K: int = 5")
    assert sig.sample_sizes()["K"] == 5
    assert [a.name for a in sig.size_attrs()] == ["K"]


def test_zero_d_outputs_and_no_attributes():
    sig = parse_signature("x: float[N] -> loss: float[]")
    assert sig.outputs[0].dims == () and sig.attrs == ()


@pytest.mark.parametrize("text, part, expected, got", [
    ("x: float[N] y: float[N]", "column 13", "',' and another input tensor, or '->'", "'y'"),
    ("x: float[N] -> y: double[N]", "output 'y'", "a dtype: float, int64, int32", "'double'"),
    ("x: float32[N] -> y: float[N]", "input 'x'", "float32 and float64 are both verified", "'float32'"),
    ("x: float[N, 0] -> y: float[N]", "input 'x'", "a dimension: a symbol (N) or a positive integer", "'0'"),
    ("x: float[N -> y: float[N]", "input 'x'", "',' or ']' in a shape", "'->'"),
    ("x: float[N] -> y: float[M]", "output 'y'", "output sizes the inputs give", "'M' in no input"),
    ("x: float[N, N] -> y: float[N]", "input 'x'", "each symbol at most once per tensor", "N twice"),
    ("x: float[N] -> y: float[N]; alpha: float", "attribute 'alpha'", "'=' and its default", "the end"),
    ("x: float[N] -> y: float[N]; k2: int = 0.5", "attribute 'k2'", "an integer default", "'0.5'"),
    ("x: float[N] -> y: float[N]; beta: str = 1", "attribute 'beta'", "an attribute type: float, int", "'str'"),
    ("x: float[N] -> y: float[N], x: float[N]", "output 'x'", "distinct names", "'x' both input and output"),
    ("x: float[N] -> d_y: float[N]", "output 'd_y'", "a name the generated code does not use itself", "'d_y'"),
    ("x: float[N] -> index: int64[N]", "column 16", "at least one float output", "only int64"),
    ("index: int64[N] -> y: float[N]", "column 1", "at least one float input", "only int64"),
    ("x: float[] -> y: float[]", "input 'x'", "inputs of at least one dimension", "x: float[]"),
    ("x: float[T, x] -> y: float[T]", "input 'x'", "dimension symbols distinct", "'x' is also an input"),
    ("x: float[N] -> y: float[N] $", "column 28", "a name, a number", "'$'"),
])
def test_a_bad_signature_names_the_part_expected_and_got(text, part, expected, got):
    with pytest.raises(SignatureError) as caught:
        parse_signature(text)
    message = str(caught.value)
    assert f"at {part}" in message or f"({part}" in message, message
    assert expected in message and f"got {got}" in message, message
    assert isinstance(caught.value, ScaffoldError)


def test_new_op_refuses_a_bad_signature_with_exit_code_2(pack_dir):
    result = _invoke_in(pack_dir, ["new-op", "bad", "--signature", "x: float[N] -> y: float[M]"])
    assert result.exit_code == 2
    assert "output 'y'" in result.output and "'M' in no input" in result.output
    assert not (pack_dir / "src" / "packdemo" / "ops" / "bad.py").exists()


def test_new_op_refuses_signature_with_kind_or_formula(pack_dir):
    result = _invoke_in(pack_dir, ["new-op", "bad", "--kind", "rows", "--signature", "x: float[N] -> y: float[N]"])
    assert result.exit_code == 2 and "--kind rows" in result.output

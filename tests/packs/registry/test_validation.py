"""Registration checks: a bad register() call says what is wrong in the pack's terms."""
import pytest

import opsdk
from opsdk.errors import RegistrationError
from opsdk.kernels import Kernel
from opsdk.packs.registry import Sample, TensorSpec, build_opinfo
from opsdk.packs.registry.validation import default_op_name

from .conftest import Lerp, NoBackward, Swish

SPEC = TensorSpec(shape=(3,))


def _register(function=Swish, **options):
    options.setdefault("name", "swish")
    if "samples" not in options:
        options.setdefault("inputs", [SPEC])
    return build_opinfo("mypack", "1.0", "mypack-dist", function, options)


def _fails(match, function=Swish, **options):
    with pytest.raises(RegistrationError, match=match):
        _register(function, **options)


def test_valid_registration_fills_every_field():
    op = _register(attrs={"beta": 1.5}, dtypes=("float64", "float32"), atol={"float32": 0.1},
                   rtol=0.2, double_backward=True)
    assert (op.qualname, op.pack, op.pack_version, op.distribution) == \
        ("mypack.swish", "mypack", "1.0", "mypack-dist")
    assert (op.function, op.inputs, op.attrs, op.dtypes) == (Swish, (SPEC,), {"beta": 1.5}, ("float64", "float32"))
    assert (op.atol("float32"), op.atol("float64"), op.rtol("float64")) == (0.1, 1e-5, 0.2)
    assert op.double_backward and op.kernels == () and op.sample_fn is None


def test_doc_defaults_to_the_functions_own_docstring():
    assert _register().doc == "x * sigmoid(beta * x)."
    assert _register(Lerp, name="lerp", inputs=[SPEC, SPEC], attrs={"weight": 0.5}).doc == ""
    assert _register(doc="Custom.").doc == "Custom."


def test_name_defaults_to_the_snake_cased_class_name():
    assert build_opinfo("p", None, None, Swish, {"inputs": [SPEC]}).name == "swish"
    assert default_op_name(type("FusedSwiGLU", (), {})) == "fused_swi_glu"


def test_defaults_verify_float32_and_float64_first_order_only():
    op = _register()
    assert op.dtypes == ("float32", "float64") and op.double_backward is False


@pytest.mark.parametrize("name", ["my-op", "2x", "class", "_private", 7])
def test_name_must_be_a_public_identifier(name):
    _fails("pack 'mypack', op '.*': the op name must be a Python identifier", name=name)


def test_function_must_be_a_pylayer_subclass():
    def swish(x):
        return x

    _fails("pack 'mypack', op 'swish': the Function must be a PyLayer subclass.*got: function", swish)
    _fails("must be a PyLayer subclass", int)


def test_function_must_define_backward():
    _fails("pack 'mypack', op 'swish': NoBackward does not define backward", NoBackward)


def test_inputs_entries_must_be_tensor_specs():
    _fails(r"pack 'mypack', op 'swish': inputs\[1\] must be a TensorSpec; got: int", inputs=[SPEC, 3])


def test_inputs_must_be_a_list():
    _fails("inputs must be a list of TensorSpec", inputs=SPEC)


def test_bad_spec_field_is_named_with_its_index():
    _fails(r"inputs\[0\].domain must be \(low, high\)", inputs=[TensorSpec(shape=(2,), domain=(1.0, 0.0))])


def test_inputs_must_fit_forward():
    _fails(r"inputs has 3 specs but Swish.forward\(ctx, x, beta=1.0\)", inputs=[SPEC] * 3)
    _fails("attrs\\['gamma'\\] is not a parameter", attrs={"gamma": 1.0})
    _fails("parameter 'weight' gets no value", Lerp, name="lerp", inputs=[SPEC, SPEC])


def test_attrs_must_be_a_dict_by_name():
    _fails("attrs must be a dict", attrs=[("beta", 1.0)])


def test_unknown_dtype_is_refused():
    _fails(r"dtypes\[1\] is not a verifiable dtype; expected: one of float64, float32, float16; got: str 'int32'",
           dtypes=("float32", "int32"))


def test_dtypes_must_be_a_non_empty_tuple():
    _fails("dtypes must be a non-empty tuple", dtypes="float32")
    _fails("dtypes must be a non-empty tuple", dtypes=())


def test_dtypes_accept_numpy_and_paddle_spellings():
    assert _register(dtypes=(opsdk.float16, "paddle.float64", "float64")).dtypes == ("float16", "float64")


@pytest.mark.parametrize("atol", ["0.1", -1.0, float("nan"), True, {"float32": "x"}])
def test_tolerance_must_be_a_non_negative_number_or_dict_of_them(atol):
    _fails("atol.* must be a finite number >= 0", atol=atol)


def test_tolerance_dict_keys_must_be_verified_dtypes():
    _fails("rtol has an entry for 'float16', a dtype the op is not verified in", rtol={"float16": 0.1})


def test_double_backward_must_be_a_bool():
    _fails("double_backward must be True or False; got: str 'yes'", double_backward="yes")


def test_kernels_must_be_kernel_objects():
    _fails("kernels must be a tuple", kernels=Kernel("test_validation.k1"))
    _fails(r"kernels\[0\] must be an opsdk.kernels.Kernel; got: function", kernels=(lambda x: x,))


def test_kernel_objects_are_kept_in_order():
    first, second = Kernel("test_validation.k2"), Kernel("test_validation.k3")
    assert _register(kernels=[first, second]).kernels == (first, second)


def test_samples_must_be_callable_with_rng_and_dtype():
    _fails("samples must be a callable", samples=[Sample()])
    _fails(r"samples must accept \(rng, dtype\)", samples=lambda rng: [])


def test_samples_replace_inputs():
    op = _register(samples=lambda rng, dtype: [Sample(args=(1.0,))])
    assert op.inputs == () and callable(op.sample_fn)


def test_samples_with_inputs_or_attrs_are_refused():
    _fails("got samples= with inputs= or attrs=", inputs=[SPEC], samples=lambda rng, dtype: [])
    _fails("got samples= with inputs= or attrs=", attrs={"beta": 1.0}, samples=lambda rng, dtype: [])


def test_none_means_the_default_for_dtypes_and_kernels():
    op = _register(dtypes=None, kernels=None)
    assert (op.dtypes, op.kernels) == (("float32", "float64"), ())


def test_neither_inputs_nor_samples_is_refused():
    _fails("needs something to verify it on", inputs=None)


def test_doc_must_be_a_string():
    _fails("doc must be a str", doc=3)


def test_unknown_option_suggests_the_close_one():
    _fails("unknown argument 'dtype' \\(did you mean 'dtypes'\\?\\)", dtype="float32")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), [1.0, float("nan")],
                                   (0.5, (float("inf"),)), complex(1, float("nan"))])
def test_an_attr_that_is_not_finite_is_refused_naming_the_op_and_the_attr(value):
    _fails(r"pack 'mypack', op 'swish': attrs\['beta'\] is not finite; expected: a finite value", attrs={"beta": value})


def test_a_numpy_attr_that_is_not_finite_is_refused():
    import numpy

    _fails(r"attrs\['beta'\] is not finite", attrs={"beta": numpy.float32("nan")})
    _fails(r"attrs\['beta'\] is not finite", attrs={"beta": numpy.array([1.0, numpy.inf])})


def test_finite_and_non_numeric_attrs_are_kept():
    import numpy

    for value in (1.5, 0, True, "mean", None, (1.0, 2.0), numpy.float64(2.0), numpy.arange(3)):
        assert _register(attrs={"beta": value}).attrs == {"beta": value}

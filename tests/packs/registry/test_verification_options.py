"""reference=, attr_ranges= and sizes=: what steers verification, checked at registration."""
import pytest

from opsdk.errors import RegistrationError
from opsdk.packs.registry import TensorSpec, build_opinfo

from .conftest import Swish

SPEC = TensorSpec(shape=(3,))


def _register(**options):
    options.setdefault("name", "swish")
    options.setdefault("inputs", [SPEC])
    return build_opinfo("mypack", "1.0", "mypack-dist", Swish, options)


def _fails(match, **options):
    with pytest.raises(RegistrationError, match=match):
        _register(**options)


def test_the_options_land_on_the_opinfo():
    def reference(x, beta=1.0):
        return x
    op = _register(attrs={"beta": 1.5}, reference=reference, attr_ranges={"beta": [0.5, 3]},
                   sizes=[100001])
    assert op.reference is reference and op.attr_ranges == {"beta": (0.5, 3.0)}
    assert op.sizes == (100001,)
    assert _register().reference is None and _register().sizes == ()


def test_a_reference_must_be_a_function_taking_the_op_s_arguments():
    _fails("reference must be a function", reference=3)
    _fails(r"reference\(x, y\) cannot take the op's 1 input\(s\) and attrs \['beta'\]",
           attrs={"beta": 1.5}, reference=lambda x, y: x)


def test_attr_ranges_name_real_parameters_with_finite_ordered_bounds():
    _fails("attr_ranges names 'gamma', which is not a parameter of Swish.forward",
           attr_ranges={"gamma": (0, 1)})
    _fails(r"attr_ranges\['beta'\] must be \(low, high\)", attr_ranges={"beta": (2, 1)})
    _fails(r"attrs\['beta'\] = 5.0 lies outside its declared range", attrs={"beta": 5.0},
           attr_ranges={"beta": (0, 1)})
    _fails("attr_ranges must be a dict", attr_ranges=[("beta", (0, 1))])


def test_sizes_are_positive_ints():
    _fails("sizes must be a tuple of ints >= 1", sizes=[0])
    _fails("sizes must be a tuple of ints >= 1", sizes=[1.5])


def test_declared_tolerances_are_told_apart_from_the_defaults():
    op = _register(atol={"float32": 0.1}, rtol=0.2)
    assert op.declared_tolerance("float32") == (0.1, 0.2)
    assert op.declared_tolerance("float64") == (None, 0.2)
    assert _register().declared_tolerance("float64") == (None, None)


def test_cost_ties_and_accumulation_land_on_the_opinfo_with_their_defaults():
    from opsdk.packs.registry.verification_options import Cost

    op = _register(max_size=300, cost="sequential n^2", ties="any", accumulation="dtype")
    assert (op.max_size, op.cost, op.ties, op.accumulation) == \
        (300, Cost(2, False, True), "any", "dtype")
    plain = _register()
    assert (plain.max_size, plain.cost, plain.ties, plain.accumulation) == \
        (None, None, "first", "wide")


def test_a_cost_says_how_the_work_grows_with_n():
    from opsdk.packs.registry.verification_options import parse_cost

    assert str(parse_cost("n log n")) == "n log n" and parse_cost("n log n").work(8) == 24
    assert parse_cost(" sequential  n ^ 3").work(3) == 27
    _fails(r"cost must say how the op's work grows .* got: 'quadratic'", cost="quadratic")
    _fails("cost must say", cost="n^4")


def test_max_size_ties_and_accumulation_refuse_what_they_do_not_know():
    _fails(r"max_size must be an int >= 1 .* got: 0", max_size=0)
    _fails("max_size must be an int", max_size=True)
    _fails(r"ties must be one of 'first', 'last', 'any'; got: 'random'", ties="random")
    _fails(r"accumulation must be one of 'wide', 'dtype'; got: 'float32'",
           accumulation="float32")

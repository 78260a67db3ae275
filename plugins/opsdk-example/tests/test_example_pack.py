"""The pack is installed and registers example.swish with its metadata."""
import opsdk
import opsdk.plugins
from opsdk_example.swish import OP, Swish


def test_pack_loads_without_failures():
    registry = opsdk.plugins.get_registry()
    failures = [f"{f}\n{f.traceback}" for f in registry.failures() if f.pack == "example"]
    assert not failures, "\n".join(failures)
    assert registry.has_pack("example"), (
        "pack 'example' is not installed: pip install -e plugins/opsdk-example")


def test_swish_is_registered_with_its_function_and_kernels():
    op = opsdk.ops.get("example.swish")
    assert op.function is Swish and op.kernels == OP.kernels
    assert op.backends == ("python", "c", "cuda")


def test_swish_claims_double_backward_in_float32_and_float64():
    op = opsdk.ops.get("example.swish")
    assert op.double_backward and op.dtypes == ("float32", "float64")


def test_samples_follow_the_input_spec_and_attrs():
    (sample,) = opsdk.ops.get("example.swish").samples("float64", rng=0)
    (x,) = sample.args
    assert x.shape == [3, 4] and x.dtype == "float64" and sample.kwargs == {"beta": 1.5}
    assert -3.0 <= x.numpy().min() and x.numpy().max() <= 3.0

import subprocess
import sys

import pytest

from opsdk import TensorSpec

from ..helpers import verdict
from ..ops import Product, Square
from ..stateful_ops import (ClassSaved, ClosureCachedRelu, DtypeBlindCache, GradientBuffer,
                            NormById, ReturnsInput, ShapeCachedRelu, SumsAxesInPlace, Twice,
                            WorkspaceRelu, WritesGradient, WritesInput, WritesSavedOutput)

X = [TensorSpec(shape=(3, 4))]
KINKED = [TensorSpec(shape=(3, 4), avoid=(0.0,), min_distance=0.05)]


def test_a_clean_op_passes(pack):
    assert verdict(pack, Square, "isolation", inputs=X).status == "pass"


def test_a_clean_binary_op_passes(pack):
    assert verdict(pack, Product, "isolation", inputs=X * 2).status == "pass"


def test_an_input_written_in_place_is_named(pack):
    result = verdict(pack, WritesInput, "isolation", inputs=X)
    assert result.status == "fail"
    assert "forward wrote into its input 'x' in place (12 of 12 elements changed" in result.detail


def test_an_incoming_gradient_written_in_place_is_named(pack):
    result = verdict(pack, WritesGradient, "isolation", inputs=X)
    assert "backward wrote into its incoming gradient 'dy'" in result.detail


def test_an_output_saved_and_written_in_place_by_backward_is_named(pack):
    # the caller still holds y: its values change under it after backward
    result = verdict(pack, WritesSavedOutput, "isolation", inputs=X)
    assert result.status == "fail"
    assert "backward changed output 0 in place (an output saved for backward" in result.detail


def test_an_output_sharing_memory_with_an_input_is_reported(pack):
    assert "output 0 shares memory with input 'x'" in verdict(pack, ReturnsInput, "isolation",
                                                              inputs=X).detail


def test_an_output_sharing_memory_with_another_output_is_reported(pack):
    assert "output 1 shares memory with output 0" in verdict(pack, Twice, "isolation",
                                                             inputs=X).detail


def test_a_gradient_buffer_reused_across_calls_is_caught_by_keeping_the_first_call_s(pack):
    result = verdict(pack, GradientBuffer, "isolation", inputs=X)
    assert result.status == "fail"
    assert ("the gradient of 'x' an earlier call returned changed when backward ran again, or is "
            "the very memory the second call returned: backward returns memory a later call "
            "overwrites") in result.detail


def test_a_cache_keyed_by_shape_is_caught_by_interleaving_from_fresh_state(pack):
    result = verdict(pack, ShapeCachedRelu, "isolation", inputs=KINKED)
    assert result.status == "fail" and "calls interfere" in result.detail
    assert "stateful_ops._MASKS (changed: dict of 1)" in result.detail


def test_state_on_the_function_class_is_caught_and_named(pack):
    result = verdict(pack, ClassSaved, "isolation", inputs=X)
    assert "ClassSaved.last" in result.detail and "backward(A)" in result.detail


def test_in_place_writes_are_never_excused_as_kinks_by_gradcheck(pack):
    result = verdict(pack, WritesInput, "gradcheck", inputs=X)
    assert result.status == "fail" and "[inplace] func wrote into its input x" in result.detail
    assert "non-differentiable" not in result.detail


def test_a_cache_in_a_closure_is_caught_and_named(pack):
    result = verdict(pack, ClosureCachedRelu, "isolation", inputs=KINKED)
    assert result.status == "fail" and "calls interfere" in result.detail
    assert "(closure).masks (changed: dict of 1)" in result.detail


def test_a_cache_in_a_workspace_object_is_caught_and_named(pack):
    result = verdict(pack, WorkspaceRelu, "isolation", inputs=KINKED)
    assert result.status == "fail" and "stateful_ops.WORKSPACE.masks" in result.detail


def test_a_cache_keyed_by_the_tensor_s_identity_is_caught(pack):
    result = verdict(pack, NormById, "isolation", inputs=X)
    # the in-place update (an optimizer step between calls) catches it in any case; where CPython
    # gave a new tensor the id of a freed one whose norm is cached (other checks and samples of
    # this op made many), the interleaved calls already give one call the other's result
    assert result.status == "fail" and "stateful_ops._NORMS" in result.detail
    assert "given B's values in place" in result.detail or "calls interfere" in result.detail


def test_a_list_argument_changed_in_place_is_named(pack):
    result = verdict(pack, SumsAxesInPlace, "isolation", inputs=X, attrs={"axes": [-1]})
    assert "forward changed its argument 'axes' in place (was [-1], now [1])" in result.detail


def test_a_call_that_raises_after_one_in_the_other_dtype_is_reported_as_interference(pack):
    result = verdict(pack, DtypeBlindCache, "isolation", dtype="float32", inputs=X,
                     dtypes=("float32", "float64"))
    assert result.status == "fail" and "calls interfere: forward(X in float64)" in result.detail
    assert "raised" in result.detail and "stateful_ops._SCALES" in result.detail



@pytest.mark.slow
def test_a_cuda_op_s_inputs_are_updated_in_place_through_cupy_on_the_simulator():
    # the in-place update (an optimizer step between calls) once built a cupy.ndarray from a
    # NumPy array, which CuPy's constructor takes as a shape: every CUDA op errored here
    done = subprocess.run([sys.executable, "-m", "opsdk.cli", "check", "example.swish", "--backend",
                           "cuda", "--simulate", "--check", "isolation"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed, 0 failed, 0 errors" in done.stdout

"""opsdk.foreign_op: the declaration, its refusals, and what the verifier sees of a torch op."""
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = pytest.mark.torch

import opsdk  # noqa: E402
from opsdk.verification.check import plan_cases, run_checks  # noqa: E402
from opsdk.errors import RegistrationError  # noqa: E402
from opsdk.packs.registry import Sample  # noqa: E402

SPEC = opsdk.TensorSpec(shape=(2, 3))


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, value, scale=1.0):
        ctx.save_for_backward(value)
        ctx.scale = scale
        return scale * value ** 3

    @staticmethod
    def backward(ctx, dy):
        (value,) = ctx.saved_tensors
        return dy * 3 * ctx.scale * value ** 2, None


def test_the_name_splits_into_pack_and_op_and_defaults_to_the_function_class():
    op = opsdk.foreign_op(Cube.apply, framework="torch", inputs=[SPEC])
    assert (op.pack, op.name, op.framework, op.foreign) == ("torch", "Cube", "torch", Cube.apply)
    named = opsdk.foreign_op(Cube.apply, framework="torch", name="lib.cube", inputs=[SPEC])
    assert named.qualname == "lib.cube" and named.function.__name__ == "Cube"


def test_the_op_computes_through_torch_and_reports_use_the_parameter_names():
    op = opsdk.foreign_op(Cube.apply, framework="torch", name="lib.cube", inputs=[SPEC],
                          attrs={"scale": 2.0})
    x = opsdk.to_tensor([[1.0, 2.0, 3.0]], dtype="float64", stop_gradient=False)
    y = op(x, scale=2.0)
    y.sum().backward()
    assert y.numpy().tolist() == [[2.0, 16.0, 54.0]]
    assert x.grad.numpy().tolist() == [[6.0, 24.0, 54.0]]
    assert list(op.function.forward.__signature__.parameters) == ["ctx", "value", "scale"]


def test_second_derivatives_come_from_torch_when_claimed():
    op = opsdk.foreign_op(Cube.apply, framework="torch", name="lib.cube", inputs=[SPEC],
                          double_backward=True)
    x = opsdk.to_tensor([2.0], dtype="float64", stop_gradient=False)
    (dx,) = opsdk.grad(op(x), x, create_graph=True)
    (ddx,) = opsdk.grad(dx, x)
    assert (dx.item(), ddx.item()) == (12.0, 12.0)


def test_a_second_derivative_not_claimed_is_refused_naming_the_function():
    op = opsdk.foreign_op(Cube.apply, framework="torch", name="lib.cube", inputs=[SPEC])
    x = opsdk.to_tensor([2.0], dtype="float64", stop_gradient=False)
    (dx,) = opsdk.grad(op(x), x, create_graph=True)
    with pytest.raises(opsdk.errors.DoubleBackwardError, match="'Cube' is first-order only"):
        opsdk.grad(dx, x)


def test_integer_outputs_are_not_differentiated():
    op = opsdk.foreign_op(lambda x: torch.max(x, dim=-1), framework="torch", name="lib.max",
                          inputs=[SPEC])
    x = opsdk.to_tensor([[1.0, 5.0, 2.0]], dtype="float64", stop_gradient=False)
    values, index = op(x)
    assert index.dtype == opsdk.int64 and index.stop_gradient
    values.sum().backward()
    assert x.grad.numpy().tolist() == [[0.0, 1.0, 0.0]]


def test_a_samples_callable_replaces_input_specs():
    def samples(rng, dtype):
        yield Sample(args=(rng.standard_normal((2, 2)).astype(dtype),), kwargs={"scale": 0.5})

    op = opsdk.foreign_op(Cube.apply, framework="torch", name="lib.cube", samples=samples,
                          reference=lambda x, scale=1.0: scale * x ** 3)
    results = run_checks(plan_cases([op], backends=["python"], dtypes=["float64"],
                                     checks=["gradcheck", "reference"]))
    assert [r.status for r in results] == ["pass", "pass"], [r.detail for r in results]


def test_the_reversed_layout_torch_cannot_hold_is_a_note_not_a_pass():
    op = opsdk.foreign_op(Cube.apply, framework="torch", name="lib.cube", inputs=[SPEC])
    (result,) = run_checks(plan_cases([op], backends=["python"], dtypes=["float64"],
                                       checks=["layout"]))
    assert result.status == "pass"
    assert any("torch tensors cannot have negative strides" in note for note in result.notes)


@pytest.mark.parametrize("kwargs, words", [
    ({"framework": "tensorflow"}, "framework must be one of torch, jax, paddle"),
    ({"framework": "torch", "kernels": ()}, "kernels= does not apply"),
    ({"framework": "torch", "attrs": {"nope": 1}}, "attrs['nope'] is not a parameter"),
    ({"framework": "torch", "name": ""}, "name must be a non-empty str"),
])
def test_a_bad_declaration_is_refused_naming_what_is_wrong(kwargs, words):
    with pytest.raises(RegistrationError, match=words.replace("[", r"\[").replace("]", r"\]")):
        opsdk.foreign_op(Cube.apply, inputs=[SPEC], **kwargs)


def test_a_callable_is_required():
    with pytest.raises(RegistrationError, match="fn must be a callable of torch tensors"):
        opsdk.foreign_op(3, framework="torch", inputs=[SPEC])


@pytest.mark.slow
def test_a_torch_foreign_op_needs_no_other_framework():
    import subprocess
    import sys

    code = ("import sys, torch, opsdk\n"
            "from opsdk.check import plan_cases, run_checks\n"
            "op = opsdk.foreign_op(torch.tanh, framework='torch', name='lib.tanh',\n"
            "                      inputs=[opsdk.TensorSpec(shape=(2,))])\n"
            "(r,) = run_checks(plan_cases([op], backends=['python'], dtypes=['float64'],\n"
            "                             checks=['gradcheck']))\n"
            "print(r.status, sorted(m for m in ('jax', 'paddle', 'cupy') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.stdout.strip() == "pass []", done.stdout + done.stderr


def test_a_torch_ops_op_takes_its_parameter_names_from_its_schema():
    from . import torch_ops  # registers torch.ops.opsdk_foreign_tests.sincos

    op = opsdk.foreign_op(torch.ops.opsdk_foreign_tests.sincos, framework="torch",
                          name="lib.sincos", inputs=[SPEC])
    assert torch_ops.CORRECT  # the pack module registered the op this test looks up
    assert list(op.function.forward.__signature__.parameters) == ["ctx", "x"]


def test_an_optional_tensor_given_as_none_keeps_the_gradients_in_place():
    def scaled(x, weight=None, bias=None):
        y = x if weight is None else x * weight
        return y if bias is None else y + bias

    op = opsdk.foreign_op(scaled, framework="torch", name="lib.scaled", inputs=[SPEC] * 3,
                          double_backward=True)
    x = opsdk.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    b = opsdk.to_tensor([3.0, 4.0], dtype="float64", stop_gradient=False)
    (dx, db) = opsdk.grad(op(x, None, b) * x, [x, b], create_graph=True)
    assert dx.numpy().tolist() == [5.0, 8.0] and db.numpy().tolist() == [1.0, 2.0]
    (ddx,) = opsdk.grad(dx.sum(), x)
    assert ddx.numpy().tolist() == [2.0, 2.0]

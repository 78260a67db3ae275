"""opsdk.scaffold.skeleton: the files `new-op --signature` renders, and their placeholder maths run
in-process on the python backend (the packs built, tested and checked are test_signature_end_to_end's)."""
import ast
import importlib.util
import re

import numpy
import pytest

import opsdk
from opsdk.kernels import use_backend
from opsdk.scaffold import plan_op, write_plan

SIGNATURES = {
    "chan": "x: float[N, C, L], bias: float[C] -> y: float[N, C, L], index: int64[N]; alpha: float = 0.5",
    "nearest": "x: float[N, D], centers: float[K, D] -> dist: float[N], index: int64[N]",
    "scatter": "dy: float[R, W], index: int64[R] -> table: float[K, W]; K: int = 5",
    "loss": "x: float[N, 3] -> loss: float[]",
    "mm": "a: float[M, K], b: float[K, P] -> c: float[M, P], idx: int32[P]; alpha: float = 1.0, beta: float = 2.0",
    "perm": "x: float[C, N] -> y: float[N, C, 2], pos: int64[N], sign: int64[C, N]",
}


def _generate(pack_dir, op, backends=("python",)):
    written = write_plan(plan_op(op, pack_dir, backends, signature=SIGNATURES[op]))
    assert written
    return pack_dir / "src" / "packdemo" / "ops"


def _load(path):
    spec = importlib.util.spec_from_file_location(f"sigtest_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_python_only_writes_the_module_and_its_tests(pack_dir):
    ops = _generate(pack_dir, "chan")
    assert sorted(p.name for p in ops.iterdir() if p.stem == "chan") == ["chan.py"]
    assert (pack_dir / "tests" / "ops" / "test_chan.py").exists()


def test_c_and_cuda_write_their_kernels_and_no_hand_written_adapter(pack_dir):
    ops = _generate(pack_dir, "chan", ("python", "c", "cuda"))
    module = (ops / "chan.py").read_text()
    assert 'forward.c(_C, "chan_forward",' in module and "outputs=" in module and "sizes=" in module
    assert 'forward.cuda(_CUDA, "chan_forward",' in module and "threads=" in module
    assert "c_pointer" not in module and "launch_1d" not in module  # the SDK writes the adapters
    c = (ops / "chan.c").read_text()
    for suffix, real in (("f32", "float"), ("f64", "double")):
        assert f"void chan_forward_{suffix}(const {real} *x, const {real} *bias, {real} *y, int64_t *index," in c
    assert 'extern "C" __global__ void chan_backward_f64(' in (ops / "chan.cu").read_text()


def test_the_generated_tests_name_no_maths(pack_dir):
    _generate(pack_dir, "chan")
    tests = (pack_dir / "tests" / "ops" / "test_chan.py").read_text()
    assert not re.search(r"tanh|argmax|sum\(axis|reshape", tests)  # derived from the registration and reference
    assert 'OP["reference"]' in tests


def test_the_maths_sits_in_the_kernels_and_the_reference_only(pack_dir):
    source = (_generate(pack_dir, "chan") / "chan.py").read_text()
    holders = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and "tanh" in ast.get_source_segment(source, node):
            decorators = [ast.unparse(d) for d in getattr(node, "decorator_list", [])]
            holders.add(decorators[0] if decorators else node.name)
    assert holders == {"forward.python", "backward.python", "reference"}


@pytest.mark.parametrize("op", sorted(SIGNATURES))
def test_the_placeholder_matches_its_reference_and_its_autograd(pack_dir, op):
    module = _load(_generate(pack_dir, op) / f"{op}.py")
    made = {}
    module.register_op(lambda function, **options: made.update(options, function=function))
    rng = numpy.random.default_rng(0)
    arrays = [rng.integers(0, spec.high, spec.shape) if spec.integer else rng.uniform(-2, 2, spec.shape)
              for spec in made["inputs"]]

    def run(function):
        tensors = [opsdk.to_tensor(a, stop_gradient=a.dtype.kind != "f") for a in arrays]
        outputs = function(*tensors, **made["attrs"])
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        floats = [o for o in outputs if o.numpy().dtype.kind == "f"]
        probes = numpy.random.default_rng(1)
        loss = sum((o * opsdk.to_tensor(probes.standard_normal(o.shape))).sum() for o in floats)
        grads = opsdk.grad(loss, [t for t in tensors if not t.stop_gradient])
        return [o.numpy() for o in outputs], [g.numpy() for g in grads]

    with use_backend("python"):
        outputs, grads = run(made["function"].apply)
    want_outputs, want_grads = run(made["reference"])
    for got, want in zip(outputs + grads, want_outputs + want_grads):
        assert got.shape == want.shape and got.dtype == want.dtype
        numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert len(grads) == sum(1 for a in arrays if a.dtype.kind == "f")

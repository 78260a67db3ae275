"""`opsdk check --op`: foreign ops found by module:attr and by a pyproject.toml's
[tool.opsdk.ops] tables; exit 0 when they pass, 1 when a check fails, 2 for a bad --op."""
import sys
import textwrap

import pytest
from click.testing import CliRunner

pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = pytest.mark.torch

from opsdk.cli import main  # noqa: E402

QUICK = ("--check", "gradcheck", "--dtype", "float64", "--no-progress")

OPS = '''
import torch
import opsdk


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta=1.0):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return x * torch.sigmoid(beta * x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(ctx.beta * x)
        return dy * (s + {factor} * x * s * (1 - s)), None


SPEC = opsdk.TensorSpec(shape=(2, 3), domain=(-3.0, 3.0))
swish = opsdk.foreign_op(Swish.apply, framework="torch", name="{pack}.swish", inputs=[SPEC],
                         attrs={{"beta": 1.5}})
both = [swish, opsdk.foreign_op(torch.tanh, framework="torch", name="{pack}.tanh",
                                inputs=[SPEC])]
'''


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A directory with a module of foreign ops (``factor``: the backward's chain-rule factor)."""
    def make(module, factor="ctx.beta"):
        (tmp_path / f"{module}.py").write_text(OPS.format(factor=factor, pack=module))
        monkeypatch.chdir(tmp_path)
        monkeypatch.syspath_prepend(str(tmp_path))
        return tmp_path

    yield make
    for name in [n for n in sys.modules if n.startswith("fops_")]:
        del sys.modules[name]


def _check(*args):
    return CliRunner().invoke(main, ["check", *args, *QUICK])


def test_a_correct_op_found_by_module_and_attribute_passes(project):
    project("fops_good")
    result = _check("--op", "fops_good:swish")
    assert result.exit_code == 0, result.output
    assert "fops_good.swish" in result.output


def test_a_list_attribute_checks_every_op_and_names_choose_among_them(project):
    project("fops_list")
    assert _check("--op", "fops_list:both").output.count("fops_list.") >= 2
    result = _check("--op", "fops_list:both", "fops_list.tanh", "-v")
    assert result.exit_code == 0 and "fops_list.swish" not in result.output, result.output


def test_a_wrong_backward_exits_1_with_a_replay_naming_the_op_source(project):
    project("fops_bad", factor="1.0")
    result = _check("--op", "fops_bad:swish")
    assert result.exit_code == 1, result.output
    assert "replay: opsdk check --op fops_bad:swish fops_bad.swish" in result.output


@pytest.mark.parametrize("spec, words", [
    ("fops_missing_module:swish", "importing module 'fops_missing_module' failed"),
    ("fops_usage:nothing", "has no attribute 'nothing'"),
    ("fops_usage:torch", "is a module; expected: an op from opsdk.foreign_op"),
    ("fops_usage", "expected MODULE:ATTR"),
])
def test_a_bad_op_value_is_a_usage_error(project, spec, words):
    project("fops_usage")
    result = _check("--op", spec)
    assert result.exit_code == 2 and words in result.output, result.output


def test_an_unknown_name_among_the_foreign_ops_is_a_usage_error(project):
    project("fops_names")
    result = _check("--op", "fops_names:swish", "fops_names.nope")
    assert result.exit_code == 2 and "no foreign op named 'fops_names.nope'" in result.output


def test_pyproject_tables_declare_foreign_ops_without_python(project):
    root = project("fops_toml")
    (root / "pyproject.toml").write_text(textwrap.dedent('''
        [tool.opsdk.ops."fops_toml.swish_declared"]
        function = "fops_toml:Swish.apply"
        framework = "torch"
        inputs = [{shape = [2, 3], domain = [-3.0, 3.0]}]
        attrs = {beta = 1.5}
        attr_ranges = {beta = [0.5, 3.0]}
        dtypes = ["float64"]
    '''))
    result = _check("--op", "pyproject.toml", "-v")
    assert result.exit_code == 0, result.output
    assert "fops_toml.swish_declared" in result.output


@pytest.mark.parametrize("body, words", [
    ("[project]\nname = 'x'\n", "no [tool.opsdk.ops] table"),
    ("[tool.opsdk.ops.'p.q']\nframework = 'torch'\n", "needs function"),
    ("[tool.opsdk.ops.'p.q']\nfunction = 'fops_tomlbad:Swish.apply'\nframework = 'torch'\n"
     "inputs = [{shape = [2], colour = 1}]\n", "inputs: "),
    ("[tool.opsdk.ops.'p.q'\n", "not valid TOML"),
])
def test_a_bad_pyproject_is_a_usage_error_naming_the_table(project, body, words):
    root = project("fops_tomlbad")
    (root / "pyproject.toml").write_text(body)
    result = _check("--op", "pyproject.toml")
    assert result.exit_code == 2 and words in result.output, result.output

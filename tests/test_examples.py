"""Every script in examples/ runs, and each seed example gives the value its text states."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def _load(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" /
                                                  f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(name):
    return _load(name).main(verbose=False)


# examples that need an optional framework, and the test that runs them (tests/interop/)
NEEDS = {"ddp_torch": "torch", "jax_sharded": "jax"}


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_script_runs_and_its_own_checks_pass(script):
    if script.stem in NEEDS:
        pytest.skip(f"needs {NEEDS[script.stem]}: run by tests/interop/ (marked {NEEDS[script.stem]})")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert r.stdout.strip(), "an example prints what it shows"
    assert "Warning" not in r.stderr, r.stderr[-2000:]


def test_seed001_sgd_reaches_w_2_6779_after_10_steps():
    assert _run("seed001_sgd_create_parameter")["w"] == pytest.approx(3 * (1 - 0.8 ** 10),
                                                                      rel=1e-6)


def test_seed001_linear_regression_learns_y_equals_2x_plus_1():
    r = _run("seed001_linear_regression")
    assert r["first_loss"] > 10 and r["loss"] < 0.01
    assert r["w"] == pytest.approx(2.0, abs=0.1) and r["prediction"] == pytest.approx(11, abs=0.3)
    assert r["prediction_stop_gradient"] is True


def test_seed000_relu_gradient_is_0_0_0_1_1():
    assert _run("seed000_relu_gradient")["grad"] == [0.0, 0.0, 0.0, 1.0, 1.0]


def test_seed000_embedding_gradient_only_on_rows_1_3_5():
    r = _run("seed000_embedding_sparse_grad")
    assert r["touched_rows"] == [1, 3, 5] and r["values"] == [1.0]
    assert r["grad_sum"] == 3 * 128
    assert sorted(r["sparse_rows"]) == [1, 3, 5] and r["changed_rows"] == [1, 3, 5]


def test_seed000_global_norm_clip_brings_the_norm_to_5():
    r = _run("seed000_grad_clip_adam")
    assert r["raw_norm"] > 100 and r["clipped_norm"] == pytest.approx(5.0, rel=1e-5)
    assert r["max_move"] == pytest.approx(1e-3, rel=1e-3)


def test_seed000_amp_float16_forward_float32_loss_and_skipped_overflow_step():
    r = _run("seed000_amp_grad_scaler")
    assert (r["preds_dtype"], r["loss_dtype"]) == ("paddle.float16", "paddle.float32")
    assert r["last_loss"] < r["first_loss"] and r["scale"] == 2.0 ** 16
    assert r["skipped"] and r["scale_after_skip"] == 2.0 ** 39


def test_seed000_nan_check_stops_only_on_bad_data():
    r = _run("seed000_training_loop_nan_check")
    assert r["clean_nan_step"] is None and r["dirty_nan_step"] == 0
    assert r["last_loss"] < 0.1 * r["first_loss"]


def test_seed003_hand_written_node_rules_equal_autograd():
    assert _run("seed003_two_layer_net")["max_error"] < 1e-5


def test_seed003_dynamic_graph_uses_both_losses():
    assert _run("seed003_dynamic_loss")["used"] == {"cross_entropy": 10, "mse_loss": 10}


def test_seed003_clip_grad_norm_leaves_norm_1():
    r = _run("seed003_clip_grad_norm")
    assert r["norm_before"] > 1 and r["norm_after"] == pytest.approx(1.0, rel=1e-4)
    assert set(r["stats"]) == {"0.weight", "0.bias", "2.weight", "2.bias"}


def test_checkpointing_example_same_gradients_less_memory():
    r = _run("recompute_checkpointing")
    assert r["same_gradients"] and r["recompute_peak"] < 0.7 * r["plain_peak"]


def test_train_mlp_reaches_the_stated_accuracy():
    mod = _load("train_mlp")
    assert mod.main(verbose=False)["test_accuracy"] >= mod.TARGET_ACCURACY

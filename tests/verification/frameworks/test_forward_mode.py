"""``opsdk check --framework`` covers forward mode in each framework: torch's jacfwd and JAX's
jacfwd under jit against their reverse mode catch a wrong own jvp (the adversarial pack's
planted jvp bugs) and pass a right one; Paddle's incubate jvp passes on an op with second
order (Paddle derives its jvp from the backward, so an op's own jvp does not enter it)."""
import pytest

from verification.check.adversarial.pack import module, registered


def _rows(framework, name):
    from opsdk.packs.lookup import get
    from opsdk.verification.frameworks.runner import verify

    module("bugs_forward")
    with registered():
        return verify(framework, [get(name)])


def _forward_rows(framework, name, check):
    rows = [o for o in _rows(framework, name) if o.check == check]
    assert rows, f"{framework} ran no {check} check on {name}"
    return rows


@pytest.mark.torch
# (jvp_default_attr is right at its registered attribute, the only one the framework checks'
# samples use: opsdk check's own jvp check, which varies attributes, catches it)
@pytest.mark.parametrize("name", ["adv.jvp_missing_term", "adv.jvp_drops_input"])
def test_torch_jacfwd_check_catches_each_planted_jvp_bug(name):
    pytest.importorskip("torch", reason="torch is not installed")
    rows = _forward_rows("torch", name, "jacfwd")
    assert not any(o.passed for o in rows), [o.detail for o in rows]


@pytest.mark.torch
def test_torch_checks_pass_a_right_own_jvp_with_second_order():
    pytest.importorskip("torch", reason="torch is not installed")
    rows = _rows("torch", "adv.jvp_correct")
    assert any(o.check == "jacfwd" for o in rows)
    assert all(o.passed for o in rows), [(o.check, o.detail) for o in rows if not o.passed]


@pytest.mark.jax
@pytest.mark.slow  # JAX compiles each transform (seconds)
@pytest.mark.parametrize("name", ["adv.jvp_missing_term", "adv.jvp_drops_input"])
def test_jax_jacfwd_check_catches_a_planted_jvp_bug(name):
    pytest.importorskip("jax", reason="jax is not installed")
    rows = _forward_rows("jax", name, "jacfwd[jit]")
    assert not any(o.passed for o in rows), [o.detail for o in rows]


@pytest.mark.jax
@pytest.mark.slow
def test_jax_checks_pass_a_right_own_jvp_with_second_order():
    pytest.importorskip("jax", reason="jax is not installed")
    rows = _rows("jax", "adv.jvp_correct")
    assert any(o.check == "jacfwd[jit]" for o in rows)
    assert all(o.passed for o in rows), [(o.check, o.detail) for o in rows if not o.passed]


@pytest.mark.paddle
def test_paddle_jvp_check_passes_an_op_with_second_order():
    pytest.importorskip("paddle", reason="paddle is not installed")
    rows = _rows("paddle", "adv.jvp_correct")
    assert any(o.check == "jvp" for o in rows)
    assert all(o.passed for o in rows), [(o.check, o.detail) for o in rows if not o.passed]

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


_FORWARD = {"torch": "jacfwd", "jax": "jacfwd[jit]", "paddle": "jvp"}


def _framework(name, slow=False):
    return pytest.param(name, marks=[getattr(pytest.mark, name)] + ([pytest.mark.slow] if slow
                                                                     else []))


# (jvp_default_attr is right at its registered attribute: the forward-mode check also runs at the
# values opsdk check moves attributes to, where it is wrong; Paddle derives its jvp from the
# backward, so an op's own jvp does not enter it)
@pytest.mark.parametrize("framework", [_framework("torch"), _framework("jax", slow=True)])
@pytest.mark.parametrize("name", ["adv.jvp_missing_term", "adv.jvp_drops_input", "adv.jvp_default_attr"])
def test_the_jacfwd_check_catches_a_planted_jvp_bug(framework, name):
    pytest.importorskip(framework, reason=f"{framework} is not installed")
    rows = _forward_rows(framework, name, _FORWARD[framework])
    if name == "adv.jvp_default_attr":  # right at the registered beta, wrong where it moved
        assert [o.passed for o in rows] == [True, False, False], [(o.sample, o.detail) for o in rows]
        assert all("beta=" in str(o.sample) for o in rows[1:])
        return
    assert not any(o.passed for o in rows), [o.detail for o in rows]


@pytest.mark.parametrize("framework", [_framework("torch"), _framework("jax", slow=True),
                                       _framework("paddle")])
def test_every_check_passes_a_right_own_jvp_with_second_order(framework):
    pytest.importorskip(framework, reason=f"{framework} is not installed")
    rows = _rows(framework, "adv.jvp_correct")
    assert any(o.check == _FORWARD[framework] for o in rows)
    assert all(o.passed for o in rows), [(o.check, o.detail) for o in rows if not o.passed]

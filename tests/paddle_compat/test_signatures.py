"""Every parameter of Paddle 3.3.1's signature is one opsdk's function takes too, for every name
opsdk supports (namewalk.walk): paddle.*, the Tensor methods, paddle.nn.functional, the nn
layers' __init__ and the other walked namespaces. Paddle's own examples pass them (out=,
device=, alpha=, ...); a missing one is a TypeError there."""
import importlib
import inspect
import warnings

import pytest

import opsdk

from . import namewalk

# Paddle parameters opsdk does not take, and why
NOT_TAKEN = {
    # a file of Paddle's C++ backward graph, for debugging Paddle itself: opsdk's graph is
    # Python objects with no such format to write (accepting the path and writing nothing
    # would hide that)
    "Tensor.backward": {"dump_backward_graph_path"},
    "autograd.backward": {"dump_backward_graph_path"},
    "grad": {"dump_backward_graph_path"},
    # Paddle keeps AdamW's moments in float32 under multi_precision unless this is True;
    # opsdk's Adam keeps them in the parameter's dtype either way, so the flag would change
    # nothing here: taking it would claim a switch opsdk does not have
    "optimizer.AdamW": {"use_lowprecision_moment"},
}


def _get(root, space, name):
    """The object, or None where the namespace lists a name it cannot give (Paddle 3.3.1's
    paddle.device lists empty_cache, which its CPU build does not define)."""
    if space == "Tensor":
        return getattr(root.Tensor, name)
    module = importlib.import_module(root.__name__ + ("." + space if space else ""))
    try:
        return getattr(module, name)
    except AttributeError:
        return None


def _parameters(fn):
    try:
        return inspect.signature(fn.__init__ if inspect.isclass(fn) else fn).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return None


def missing_parameters(paddle):
    """{'space.name': [Paddle parameters opsdk's function lacks]}; opsdk functions taking
    **kwargs take everything. A Tensor method's first parameter is the tensor (Paddle names
    it x, var or input)."""
    missing = {}
    for space, entry in namewalk.walk(paddle).items():
        for name in entry["supported"]:
            theirs_fn, ours_fn = _get(paddle, space, name), _get(opsdk, space, name)
            if theirs_fn is None or ours_fn is None:
                continue
            theirs, ours = _parameters(theirs_fn), _parameters(ours_fn)
            if theirs is None or ours is None or any(
                    p.kind is p.VAR_KEYWORD for p in ours.values()):
                continue
            wanted = list(theirs)[1:] if space == "Tensor" else list(theirs)
            lack = [p for p in wanted if p not in ours and p not in ("self", "name")
                    and theirs[p].kind not in (theirs[p].VAR_KEYWORD, theirs[p].VAR_POSITIONAL)]
            key = f"{space}.{name}" if space else name
            lack = [p for p in lack if p not in NOT_TAKEN.get(key, ())]
            if lack:
                missing[key] = lack
    return missing


@pytest.mark.slow
@pytest.mark.paddle
def test_opsdk_takes_every_parameter_paddle_has():
    paddle = pytest.importorskip("paddle", reason="compares with PaddlePaddle 3.3.1's signatures")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        missing = missing_parameters(paddle)
    assert not missing, f"Paddle parameters opsdk lacks: {missing}"


@pytest.mark.paddle
def test_the_list_of_parameters_not_taken_is_still_needed():
    paddle = pytest.importorskip("paddle", reason="compares with PaddlePaddle 3.3.1's signatures")
    for key, params in NOT_TAKEN.items():
        space, _, name = key.rpartition(".")
        theirs, ours = _parameters(_get(paddle, space, name)), _parameters(_get(opsdk, space, name))
        assert params <= set(theirs) and not params & set(ours), key

"""Op state outside ctx: captured, restored and named."""
import functools
import sys
import types

import numpy as np

import opsdk
from opsdk.verification.check.state import OpState


def _op_in(module, cls):
    op = types.SimpleNamespace(function=cls, kernels=(), reference=None, qualname="t.op")
    sys.modules[module.__name__] = module
    return op


def _module():
    module = types.ModuleType("opsdk_state_probe")
    module.__file__ = "/nonexistent/opsdk_state_probe/ops.py"
    module.CACHE = {}
    module.BUFFER = np.zeros(3)
    module.COUNT = 0

    @functools.lru_cache(maxsize=None)
    def memo(n):
        return n * 2
    module.memo = memo

    class Op(opsdk.PyLayer):
        saved = None

        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy
    Op.__module__ = module.__name__
    module.Op = Op
    return module


def test_restore_puts_module_variables_and_class_attributes_back():
    module = _module()
    state = OpState(_op_in(module, module.Op))
    module.CACHE[(3, 4)] = "mask"
    module.BUFFER[:] = 7
    module.COUNT = 5
    module.NEW = 1
    module.Op.saved = "x"
    module.memo(3)
    state.restore()
    assert module.CACHE == {} and not module.BUFFER.any() and module.COUNT == 0
    assert not hasattr(module, "NEW") and module.Op.saved is None
    assert module.memo.cache_info().currsize == 0


def test_changes_name_what_moved_since_the_capture():
    module = _module()
    state = OpState(_op_in(module, module.Op))
    module.CACHE["k"] = 1
    module.Op.saved = np.ones(2)
    changes = state.changes()
    assert "opsdk_state_probe.CACHE (changed: dict of 1)" in changes
    assert any("Op.saved (rebound: array [2])" in c for c in changes)


def test_changes_name_a_functools_cache_the_op_filled():
    # a memo inside an lru_cache wrapper is state too: a call that fills one can leave a
    # stale entry for the next (isolation's keyed calls run only where a call left state)
    module = _module()
    state = OpState(_op_in(module, module.Op))
    assert state.changes() == []
    module.memo(3)
    assert "opsdk_state_probe.memo (functools cache of 1)" in state.changes()
    state.restore()
    assert state.changes() == []

"""The graph keeps only what backward needs, and backward frees it."""
import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import opsdk


def leaf(values):
    return opsdk.to_tensor(values, dtype="float64", stop_gradient=False)


def chain(x, n):
    """n ops; only sin (every third op) needs its input's values for backward."""
    refs = []
    y = x
    for i in range(n):
        y = y * 1.001 if i % 3 == 0 else (opsdk.sin(y) if i % 3 == 1 else y + 0.5)
        refs.append(weakref.ref(y))
    return y, refs


def alive(refs):
    gc.collect()
    return sum(r() is not None for r in refs)


def test_intermediates_of_a_100_op_chain_are_freed_by_backward():
    x = leaf(np.ones(8))
    y, refs = chain(x, 100)
    loss = y.sum()
    del y
    assert alive(refs) >= 30  # the graph holds the 33 inputs that sin saved
    loss.backward()
    assert alive(refs) == 0


def test_retain_graph_keeps_the_saved_intermediates():
    x = leaf(np.ones(8))
    y, refs = chain(x, 30)
    loss = y.sum()
    del y
    loss.backward(retain_graph=True)
    assert alive(refs) >= 10
    loss.backward()
    assert alive(refs) == 0


def test_intermediate_not_needed_by_backward_is_not_kept():
    x = leaf(np.ones(4))
    a = x * 2.0
    ref = weakref.ref(a)
    b = a + 1.0  # the gradient of add does not depend on the values of its inputs
    del a
    gc.collect()
    assert ref() is None and not b.stop_gradient


def test_no_grad_forward_keeps_no_intermediates():
    x = leaf(np.ones(4))
    with opsdk.no_grad():
        y, refs = chain(x, 30)
        del y
    assert alive(refs) == 0


def test_backward_releases_the_memory_of_saved_arrays():
    x = leaf(np.ones(30_000))  # 240 kB per intermediate
    tracemalloc.start()
    try:
        y, _ = chain(x, 100)
        loss = y.sum()
        del y
        gc.collect()
        held_by_graph, _ = tracemalloc.get_traced_memory()
        loss.backward()
        del loss
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held_by_graph > 5_000_000  # the 33 arrays sin saved
    assert after < 1_000_000  # what is left: x.grad and small bookkeeping


# -- graphs die with their last reference, without the garbage collector -----------------------
@pytest.fixture
def no_gc():
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _forward_ops():
    from opsdk.nn import functional as F
    return {
        "tanh": opsdk.tanh, "exp": opsdk.exp, "sigmoid": opsdk.sigmoid, "sqrt": opsdk.sqrt,
        "rsqrt": opsdk.rsqrt, "divide": lambda t: t / (t + 1.0),
        "reciprocal": opsdk.reciprocal, "pow_tensor": lambda t: t ** (t * 0.5),
        "softmax": F.softmax, "log_softmax": F.log_softmax, "relu": F.relu,
        "view_write": lambda t: _written_view(t), "reshape": lambda t: t.reshape([-1]),
        "getitem": lambda t: t[1:], "maximum": lambda t: opsdk.maximum(t, t * 0.5),
    }


def _written_view(t):
    y = t * 1.0
    v = y[0:1]
    v.add_(1.0)
    return y


@pytest.mark.parametrize("name", sorted(_forward_ops()))
def test_a_graph_never_backpropagated_dies_with_its_last_reference(name, no_gc):
    op = _forward_ops()[name]
    x = leaf(np.linspace(0.5, 2.0, 6).reshape(2, 3))
    y = op(x * 1.0)
    refs = [weakref.ref(y), weakref.ref(y._node)]
    del y
    assert [r() for r in refs] == [None, None]


@pytest.mark.slow
def test_300_forward_passes_of_a_tanh_mlp_keep_memory_flat_without_the_gc(no_gc):
    rng = np.random.default_rng(0)
    ws = [opsdk.to_tensor(rng.standard_normal((128, 128)).astype("float32") * 0.1,
                          stop_gradient=False) for _ in range(3)]
    x = opsdk.to_tensor(rng.standard_normal((256, 128)).astype("float32"))  # 128 KiB

    def forward():
        h = x
        for w in ws:
            h = opsdk.tanh(opsdk.matmul(h, w))
        return h.sum()

    tracemalloc.start()
    try:
        for _ in range(20):
            forward()
        warm, _ = tracemalloc.get_traced_memory()
        for _ in range(300):
            forward()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # a leaked graph would hold ~400 KiB per pass (over 100 MiB in all)
    assert after - warm < 256 * 1024


def test_backward_takes_the_gradient_buffer_over_instead_of_copying_it():
    x = leaf(np.ones(1_000_000))  # 8 MB of float64
    gc.collect()
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        (x * 2.0).sum().backward()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert x.grad.numpy()[0] == 2.0
    # x * 2 is freed by the sum; backward holds its gradient and x.grad: they are one buffer
    assert peak - start < 1.2 * x._data.nbytes


def test_a_gradient_buffer_that_two_leaves_share_is_not_taken_over_by_both():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (a + b).sum().backward()
    assert not np.shares_memory(a.grad._data, b.grad._data)
    a.grad._data[0] = 7.0
    assert b.grad.numpy().tolist() == [1.0, 1.0]


def test_a_user_grad_tensor_is_never_taken_over():
    x = leaf([1.0, 2.0])
    seed = opsdk.to_tensor([5.0, 6.0], dtype="float64")
    (x + 0.0).backward(seed)
    assert not np.shares_memory(x.grad._data, seed._data)

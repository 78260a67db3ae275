"""The graph keeps only what backward needs, and backward frees it."""
import gc
import tracemalloc
import weakref

import numpy as np

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

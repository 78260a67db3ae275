"""Grad mode: no_grad (context manager and decorator), enable_grad, set_grad_enabled, per thread."""
import threading

import pytest

import opsdk


def leaf(values):
    return opsdk.to_tensor(values, stop_gradient=False)


def test_grad_is_enabled_by_default():
    assert opsdk.is_grad_enabled()


def test_no_grad_context_records_no_graph():
    x = leaf([2.0])
    with opsdk.no_grad():
        y = x * x
    assert y.stop_gradient and y.is_leaf


def test_no_grad_context_restores_grad_mode_on_exit():
    with opsdk.no_grad():
        assert not opsdk.is_grad_enabled()
    assert opsdk.is_grad_enabled()


def test_no_grad_context_restores_grad_mode_after_an_exception():
    with pytest.raises(ZeroDivisionError):
        with opsdk.no_grad():
            1 / 0
    assert opsdk.is_grad_enabled()


def test_no_grad_as_a_decorator_with_parentheses():
    @opsdk.no_grad()
    def double(t):
        return t * 2.0
    assert double(leaf([1.0])).stop_gradient
    assert opsdk.is_grad_enabled()


def test_no_grad_as_a_decorator_without_parentheses():
    @opsdk.no_grad
    def double(t):
        return t * 2.0
    assert double(leaf([1.0])).stop_gradient


def test_no_grad_decorator_keeps_the_function_name():
    @opsdk.no_grad
    def evaluate(t):
        return t
    assert evaluate.__name__ == "evaluate"


def test_grad_mode_decorators_keep_the_functions_argspec():
    import inspect

    def f(a, b=1, *rest, c, **kw):
        return a

    def gen(n):
        yield from range(n)
    for deco in (opsdk.no_grad, opsdk.no_grad(), opsdk.enable_grad(),
                 opsdk.set_grad_enabled(True)):
        assert inspect.getfullargspec(deco(f)) == inspect.getfullargspec(f)
        assert inspect.getfullargspec(deco(gen)) == inspect.getfullargspec(gen)
    assert list(opsdk.no_grad(gen)(3)) == [0, 1, 2]


def test_enable_grad_inside_no_grad_records_again():
    x = leaf([2.0])
    with opsdk.no_grad():
        with opsdk.enable_grad():
            y = x * x
        z = x * x
    assert not y.stop_gradient and z.stop_gradient


def test_enable_grad_as_a_decorator_inside_no_grad():
    @opsdk.enable_grad()
    def square(t):
        return t * t
    x = leaf([3.0])
    with opsdk.no_grad():
        y = square(x)
    y.backward()
    assert x.grad.item() == 6.0


def test_set_grad_enabled_as_a_function_switches_the_mode():
    opsdk.set_grad_enabled(False)
    try:
        assert not opsdk.is_grad_enabled()
        assert (leaf([1.0]) * 2.0).stop_gradient
    finally:
        opsdk.set_grad_enabled(True)
    assert opsdk.is_grad_enabled()


def test_set_grad_enabled_as_a_context_restores_the_previous_mode():
    with opsdk.set_grad_enabled(False):
        assert not opsdk.is_grad_enabled()
    assert opsdk.is_grad_enabled()


def test_set_grad_enabled_true_inside_no_grad():
    with opsdk.no_grad():
        with opsdk.set_grad_enabled(True):
            assert opsdk.is_grad_enabled()
        assert not opsdk.is_grad_enabled()


def test_grad_mode_is_per_thread():
    seen = {}
    entered, release = threading.Event(), threading.Event()

    def other_thread():
        entered.wait(5)
        seen["other"] = opsdk.is_grad_enabled()
        seen["recorded"] = not (leaf([1.0]) * 2.0).stop_gradient
        release.set()

    t = threading.Thread(target=other_thread)
    t.start()
    with opsdk.no_grad():
        entered.set()
        release.wait(5)
        seen["main"] = opsdk.is_grad_enabled()
    t.join(5)
    assert seen == {"other": True, "recorded": True, "main": False}


def test_no_grad_in_another_thread_does_not_leak_into_this_one():
    def other_thread():
        opsdk.set_grad_enabled(False)

    t = threading.Thread(target=other_thread)
    t.start()
    t.join(5)
    assert opsdk.is_grad_enabled()


def test_backward_of_a_graph_built_before_no_grad_still_works_inside_it():
    x = leaf([3.0])
    y = x * x
    with opsdk.no_grad():
        y.backward()
    assert x.grad.item() == 6.0


def test_set_grad_enabled_as_a_decorator_runs_every_call_in_its_mode_and_restores():
    @opsdk.set_grad_enabled(False)
    def double(x):
        return x * 2

    # decorating switches nothing for the rest of the program (issue 26)
    assert opsdk.is_grad_enabled()
    x = leaf([1.0])
    assert double(x).stop_gradient and double(x).stop_gradient
    assert opsdk.is_grad_enabled()
    with opsdk.no_grad():
        double(x)
        assert not opsdk.is_grad_enabled()

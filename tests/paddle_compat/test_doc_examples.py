"""Paddle 3.3.1's own docstring examples (doc_examples) run under Paddle and under opsdk: each
agrees, raises under Paddle itself (left out), or differs for a reason docs/paddle.md gives."""
import re

import pytest

from helpers.frameworks import import_paddle

from . import doc_examples


@pytest.mark.slow
def test_every_docstring_example_agrees_with_paddle_or_differs_as_documented():
    import_paddle()
    examples, verdicts = doc_examples.run()
    assert len(examples) > 600
    differ = {k: v for k, v in verdicts.items() if v not in ("agree", "paddle raises")}
    unexpected = {k: v for k, v in differ.items() if k not in doc_examples.EXPECTED}
    assert not unexpected, "\n".join(f"{k}: {v}" for k, v in sorted(unexpected.items()))
    # a documented difference that has gone away must leave the list
    stale = set(doc_examples.EXPECTED) - set(differ)
    assert not stale, sorted(stale)


def test_static_graph_lines_end_an_example_and_random_ones_compare_shapes_only():
    assert doc_examples.STATIC.search("paddle.enable_static()")
    assert doc_examples.STATIC.search("main = paddle.static.Program()")
    assert not doc_examples.STATIC.search("y = paddle.nn.functional.relu(x)")
    assert doc_examples.RANDOM.search("x = paddle.rand([2, 3])")
    assert doc_examples.RANDOM.search("fc = paddle.nn.Linear(2, 3)")
    assert not doc_examples.RANDOM.search("y = paddle.cumsum(x, axis=0)")


def test_observations_compare_shape_dtype_flag_and_values():
    import numpy as np
    a = ("tensor", [2], "float32", True, np.array([1.0, 2.0], np.float32))
    assert doc_examples._differ(a, a, values=True) is None
    b = ("tensor", [2], "float32", True, np.array([1.0, 2.5], np.float32))
    assert re.match(r"values", doc_examples._differ(a, b, values=True))
    assert doc_examples._differ(a, b, values=False) is None  # random: shapes and dtypes only
    c = ("tensor", [2], "float64", True, np.array([1.0, 2.0]))
    assert doc_examples._differ(a, c, values=True) == "dtype float32 vs float64"
    d = ("tensor", [2], "float32", False, np.array([1.0, 2.0], np.float32))
    assert doc_examples._differ(a, d, values=True) == "stop_gradient True vs False"

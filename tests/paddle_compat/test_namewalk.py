"""Every public name of the Paddle namespaces docs/paddle.md covers is supported by opsdk or
listed as not supported with a reason, and the page's name list is the walk's output."""
import warnings

import pytest

from . import namewalk
from .unsupported_names import REASONS, UNSUPPORTED


# the walk imports every namespace of both libraries (about 2 s): the slow job runs it
@pytest.fixture(scope="module")
def result():
    paddle = pytest.importorskip("paddle", reason="walking Paddle's names needs PaddlePaddle "
                                                  "3.3.1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return namewalk.walk(paddle)


@pytest.mark.slow
@pytest.mark.paddle
@pytest.mark.parametrize("space", namewalk.SPACES)
def test_every_public_name_is_supported_or_listed_with_a_reason(result, space):
    assert not result[space]["unlisted"], (
        f"paddle{'.' + space if space else ''} names opsdk neither has nor lists in "
        f"tests/paddle_compat/unsupported_names.py: {result[space]['unlisted']}")
    assert not result[space]["stale"], (
        f"listed as unsupported, but opsdk has them (take them off the list): "
        f"{result[space]['stale']}")


@pytest.mark.slow
@pytest.mark.paddle
def test_the_docs_page_holds_the_walks_name_list(result):
    with open(namewalk.DOC, encoding="utf-8") as f:
        page = namewalk.section_of(f.read())
    assert page == namewalk.render(result), \
        "docs/paddle.md's name list is stale: run python -m tests.paddle_compat.namewalk --write"


def test_every_listed_name_has_a_known_reason():
    # the list's own consistency (runs without Paddle)
    for space, groups in UNSUPPORTED.items():
        assert space in namewalk.SPACES
        for reason in groups:
            assert reason in REASONS, f"{space}: reason {reason!r} is not in REASONS"

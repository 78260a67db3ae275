"""docs/paddle.md names every public name of the Paddle namespaces it covers, so a name Paddle
adds shows up here as a failure until the page says whether opsdk has it."""
import importlib
import os
import re

import pytest

paddle = pytest.importorskip("paddle", reason="listing Paddle's public names needs PaddlePaddle")
pytestmark = pytest.mark.paddle

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "paddle.md")
SPACES = ["autograd", "nn", "nn.functional", "nn.initializer", "nn.utils", "optimizer",
          "optimizer.lr", "amp", "linalg"]


@pytest.mark.parametrize("space", SPACES)
def test_every_public_name_is_on_the_page(space):
    with open(DOC, encoding="utf-8") as f:
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read()))
    module = importlib.import_module("paddle." + space)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    missing = sorted(n for n in set(names) if n not in words)
    assert not missing, f"paddle.{space} names docs/paddle.md does not mention: {missing}"


@pytest.mark.parametrize("space", SPACES)
def test_names_opsdk_lacks_are_not_claimed(space):
    opsdk_module = importlib.import_module("opsdk." + space)
    module = importlib.import_module("paddle." + space)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    with open(DOC, encoding="utf-8") as f:
        lines = f.read().splitlines()
    # a table row or list that says yes must not name something opsdk does not have; the
    # generated lists ("### paddle.nn (...)" then "Supported: ...") speak for their own
    # namespace only (nn.Bilinear is a layer opsdk has, nn.initializer.Bilinear is not)
    claimed, generated = set(), None
    for line in lines:
        heading = re.match(r"### paddle(?:\.([\w.]+))? \(", line)
        if heading or line.startswith("## "):
            generated = heading and (heading.group(1) or "")
        if generated not in (None, space) and line.startswith("Supported"):
            continue
        if "| yes" in line or line.startswith("Supported"):
            claimed |= set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", line))
    lacking = sorted(n for n in names if n in claimed and not hasattr(opsdk_module, n))
    assert not lacking, f"docs/paddle.md says yes to paddle.{space} names opsdk lacks: {lacking}"

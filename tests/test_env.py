"""opsdk's environment variables: each parsed in one place, a bad value never silently ignored."""
import re
import warnings
from pathlib import Path

import pytest

from opsdk import env
from opsdk.errors import OpsdkWarning

# a value each variable cannot use ("" where every text is a value: names, paths)
BAD = {"OPSDK_BACKEND": "bogus", "OPSDK_CUDA_SIM": "bogus", "OPSDK_CUDA_SIM_SCHEDULE": "backwards",
       "OPSDK_POOL_MB": "abc", "OPSDK_NN_POOL_MB": "-1", "OPSDK_BUILD_TIMEOUT": "soon",
       "OPSDK_PLUGIN_TIMEOUT": "-1", "OPSDK_FORMULA_TIMEOUT": "inf", "OPSDK_CUDA_SIM_DEVICES": "0",
       "OPSDK_CUDA_SIM_SMS": "two", "OPSDK_CUDA_SIM_TIMEOUT": "nan", "OPSDK_CUDA_SIM_RACECHECK": "yes",
       "OPSDK_CUDA_SIM_STACK_KB": "8", "OPSDK_CHECK_MAX_MEMORY": "lots", "OPSDK_CUDA_SIM_INSTRUMENT": "off",
       "OPSDK_CUDA_SIM_STRICT": "on", "OPSDK_CHECK_JOBS": "0", "OPSDK_PREBUILD": "no",
       "OPSDK_CUDA_ARCHS": "hopper"}
FREE_TEXT = {"OPSDK_LOAD_PLUGINS", "OPSDK_CACHE_DIR", "OPSDK_TEMPLATES_DIR"}
LENIENT = sorted(n for n in BAD if not env.VARIABLES[n].strict)


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    """Each test sees the warnings and parses of its own values."""
    monkeypatch.setattr(env, "_warned", set())
    monkeypatch.setattr(env, "_parsed", {})


def test_every_variable_has_a_bad_value_here_or_takes_any_text():
    assert set(env.VARIABLES) == set(BAD) | FREE_TEXT


def test_every_variable_opsdk_reads_is_declared():
    # a variable read anywhere in opsdk/ but not declared would escape doctor and the docs
    root = Path(env.__file__).parent
    read = {name for path in root.rglob("*.py") for name in
            re.findall(r"""["'](OPSDK_[A-Z0-9_]+)["']""", path.read_text(encoding="utf-8"))}
    # the written C quotes the SDK's own C macros (OPSDK_SIMD, ...): names its headers #define
    # are not variables
    macros = {name for path in (root / "kernels" / "include").rglob("*.h") for name in
              re.findall(r"^\s*#\s*define\s+(OPSDK_[A-Z0-9_]+)", path.read_text(encoding="utf-8"),
                         re.M)}
    assert "OPSDK_SIMD" in macros
    assert read - macros <= set(env.VARIABLES)


def test_docs_cli_lists_every_variable_as_declared():
    text = (Path(env.__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text.split("## Environment", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(OPSDK_[A-Z0-9_]+)` \| (.*) \| (.*) \|$", table, re.M)
    assert {name: (effect, unset) for name, effect, unset in rows} == {
        v.name: (v.effect, v.unset) for v in env.VARIABLES.values()}


def test_an_unset_variable_gives_its_default():
    assert env.setting("OPSDK_POOL_MB", {}) is None and env.setting("OPSDK_NN_POOL_MB", {}) == 256
    assert env.setting("OPSDK_CUDA_SIM", {}) is None and env.setting("OPSDK_BUILD_TIMEOUT", {}) == 600.0


@pytest.mark.parametrize("name, raw, value", [
    ("OPSDK_POOL_MB", " 64 ", 64), ("OPSDK_BUILD_TIMEOUT", "2.5", 2.5), ("OPSDK_CUDA_SIM", "Yes", "on"),
    ("OPSDK_CUDA_SIM", "auto", "auto"), ("OPSDK_CUDA_SIM", "0", None), ("OPSDK_BACKEND", "C", "c"),
    ("OPSDK_BACKEND", "auto", None), ("OPSDK_CUDA_SIM_RACECHECK", "0", False),
    ("OPSDK_CUDA_SIM_SCHEDULE", "shuffle:7", (2, 7)), ("OPSDK_LOAD_PLUGINS", "a,b", "a,b"),
    ("OPSDK_CHECK_JOBS", "Auto", None), ("OPSDK_CHECK_JOBS", " 3 ", 3),
    ("OPSDK_CUDA_ARCHS", "sm_90, 8.0", (80, 90)), ("OPSDK_CUDA_ARCHS", "None", ()),
])
def test_a_good_value_is_parsed(name, raw, value):
    assert env.setting(name, {name: raw}) == value


@pytest.mark.parametrize("name", LENIENT)
def test_a_bad_value_warns_once_naming_it_and_gives_the_default(name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = env.setting(name, {name: BAD[name]})
        second = env.setting(name, {name: BAD[name]})
    assert first == second == env.VARIABLES[name].default
    (warning,) = caught
    assert warning.category is OpsdkWarning
    assert f"{name}={BAD[name]!r} is not valid; expected: " in str(warning.message)
    assert f"fix: unset {name}, or correct it" in str(warning.message)


@pytest.mark.parametrize("name", ["OPSDK_BACKEND", "OPSDK_CUDA_SIM_SCHEDULE"])
def test_a_bad_value_of_a_strict_variable_raises_where_it_is_used(name):
    with pytest.raises(ValueError, match=f"{name}={BAD[name]!r} is not valid"):
        env.setting(name, {name: BAD[name]})


def test_problems_list_bad_values_and_near_misses_in_name_order():
    found = env.problems({"OPSDK_POOL_MB": "abc", "OPSDK_BACKEND": "bogus", "OPSDK_POOLMB": "1",
                          "OPSDK_CACHE_DIR": "/x", "OPSDK_SOMETHING_ELSE": "1", "HOME": "/root"})
    assert [(name, strict) for name, _, strict, _ in found] == [
        ("OPSDK_BACKEND", True), ("OPSDK_POOLMB", False), ("OPSDK_POOL_MB", False)]
    assert "did you mean OPSDK_POOL_MB?" in found[1][1] and found[1][3] == "rename it OPSDK_POOL_MB"
    assert "it is ignored (OPSDK_POOL_MB unset means OPSDK_NN_POOL_MB, else 256)" in found[2][1]


def test_the_pool_reads_the_older_variable_when_the_new_one_is_unset(monkeypatch):
    from opsdk.kernels import outputs

    monkeypatch.delenv("OPSDK_POOL_MB", raising=False)
    monkeypatch.setenv("OPSDK_NN_POOL_MB", "3")
    assert outputs._limit_bytes() == 3 << 20
    monkeypatch.setenv("OPSDK_POOL_MB", "5")
    assert outputs._limit_bytes() == 5 << 20

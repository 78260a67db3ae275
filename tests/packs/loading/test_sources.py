"""Where packs come from: OPSDK_LOAD_PLUGINS parsing and entry-point discovery."""
from opsdk.packs.loading.sources import (BUILTIN_MODULE, builtin_source, entry_point_sources,
                                   object_source, wanted_packs)

from .conftest import GOOD_PACK


def test_unset_env_var_means_every_pack():
    assert wanted_packs({}) is None


def test_empty_env_var_means_no_pack():
    assert wanted_packs({"OPSDK_LOAD_PLUGINS": ""}) == []
    assert wanted_packs({"OPSDK_LOAD_PLUGINS": " , "}) == []


def test_env_var_is_a_comma_separated_list():
    assert wanted_packs({"OPSDK_LOAD_PLUGINS": "a, b-dist ,c"}) == ["a", "b-dist", "c"]


def test_entry_points_carry_distribution_name_and_version(site):
    modules = site("my-dist", {"mine": GOOD_PACK}, version="2.5")
    sources, failures = entry_point_sources(["mine"])
    assert failures == []
    assert [(s.name, s.distribution, s.version) for s in sources] == [("mine", "my-dist", "2.5")]
    assert sources[0].load().__name__ == modules["mine"]


def test_distribution_name_matches_whatever_its_spelling(site):
    site("My.Fancy_Dist", {"fancy": GOOD_PACK})
    sources, _ = entry_point_sources(["my-fancy-dist"])
    assert [s.name for s in sources] == ["fancy"]


def test_entry_point_for_the_builtin_module_is_skipped(site, tmp_path):
    site("opsdk-again", {"dup": GOOD_PACK})
    info = next((tmp_path / "site").glob("opsdk_again-*.dist-info"))
    (info / "entry_points.txt").write_text(f"[opsdk]\ndup = {BUILTIN_MODULE}\n")
    assert "dup" not in [s.name for s in entry_point_sources(None)[0]]


def test_builtin_source_is_the_opsdk_pack():
    source = builtin_source()
    assert (source.name, source.distribution) == ("opsdk", "opsdk")
    assert source.load().__name__ == BUILTIN_MODULE


def test_object_source_takes_the_version_from_the_plugin():
    class Plugin:
        __version__ = "3.1"

    assert object_source(Plugin, "pk").version == "3.1"
    assert object_source(Plugin, "pk", version="4.0").version == "4.0"

"""docs/packs.md's register() table lists every keyword register() accepts, and only those: an
option added to the registry without a row would be invisible to pack authors."""
import re
from pathlib import Path

from opsdk.packs.registry.validation import OPTIONS

PACKS_MD = Path(__file__).resolve().parents[3] / "docs" / "packs.md"


def test_the_register_table_lists_every_keyword_register_accepts():
    text = PACKS_MD.read_text(encoding="utf-8")
    section = text.split("## `register(...)`", 1)[1].split("\n## ", 1)[0]
    names = set()
    for cell in re.findall(r"^\| ([^|]+) \|", section, re.M):
        names.update(re.findall(r"`(\w+)`", cell))
    assert names - {"function"} == set(OPTIONS)

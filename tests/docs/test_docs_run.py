"""Every code block of README.md, docs/*.md and each pack's README runs, in order per file, or is
marked as not meant to run (see markdown_blocks.py for the markers)."""
import importlib.metadata
import importlib.util
from pathlib import Path

import pytest

from .doc_session import DocSession
from .markdown_blocks import doc_files, parse, problems

ROOT = Path(__file__).resolve().parents[2]
DOCS = doc_files(ROOT)


def _id(path):
    return path.relative_to(ROOT).as_posix()


def _pack_distribution(doc):
    """The distribution a pack's README belongs to (plugins/<dir>/README.md), else None."""
    parts = doc.relative_to(ROOT).parts
    return parts[1] if parts[0] == "plugins" else None


def test_the_docs_are_discovered_not_listed():
    found = {_id(p) for p in DOCS}
    assert {"README.md", "docs/quickstart.md", "docs/cli.md"} <= found
    assert any(name.startswith("plugins/") for name in found)


@pytest.mark.parametrize("doc", DOCS, ids=_id)
def test_every_block_is_runnable_or_marked(doc):
    assert problems(parse(doc)) == []


# the pages whose blocks take more than a few seconds (they run `opsdk check` over packs, in each
# framework, and scaffold and build packs: 5-80 s each) run in the full verification; every other
# page runs in the default suite
SLOW_DOCS = {"docs/interop.md", "docs/quickstart.md", "docs/writing-ops.md", "docs/packs.md",
             "docs/verifying-foreign-ops.md", "plugins/opsdk-nn/README.md", "docs/porting.md"}
# a page none of whose blocks runs (each a listing or marked not-run) has nothing to run here: the
# test above checks its markers
RUN_CASES = [pytest.param(doc, id=_id(doc), marks=[pytest.mark.slow] if _id(doc) in SLOW_DOCS else [])
             for doc in DOCS if any(b.runs for b in parse(doc))]


@pytest.mark.parametrize("doc", RUN_CASES)
def test_blocks_run_in_order(doc, tmp_path):
    distribution = _pack_distribution(doc)
    if distribution is not None:
        try:
            importlib.metadata.distribution(distribution)
        except importlib.metadata.PackageNotFoundError:
            pytest.skip(f"{distribution} is not installed (pip install -e plugins/{distribution})")
    blocks = [b for b in parse(doc) if b.runs]
    missing = sorted({m for b in blocks for m in b.needs if importlib.util.find_spec(m) is None})
    blocks = [b for b in blocks if not set(b.needs) & set(missing)]
    if not blocks:
        pytest.skip(f"every block that runs needs what is not installed: {', '.join(missing)}")
    session = DocSession(doc, tmp_path)
    try:
        for block in blocks:
            session.run(block)
    finally:
        session.close()
    if missing:
        pytest.skip(f"the other blocks ran; those needing {', '.join(missing)} were skipped (not installed)")

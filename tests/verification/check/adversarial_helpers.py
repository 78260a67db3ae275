"""What both adversarial packs' tests share: the CLI's failures over a pack, and the pytest
plugin's reports over it from a child pytest."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from click.testing import CliRunner

TESTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPO = os.path.dirname(TESTS)


def cli_failures(registered, pack, seed, *extra):
    """{'pack.op': [failed result dicts]} from `opsdk check --pack PACK --json` in this process,
    with the pack registered by the context manager ``registered``."""
    from opsdk.cli import main

    with registered():
        result = CliRunner().invoke(main, ["check", "--pack", pack, "--json", "--seed", str(seed),
                                           *extra], catch_exceptions=False)
    failed = {}
    # stdout only: an op's RuntimeWarnings go to stderr, which click's output mixes in
    for row in json.loads(result.stdout)["results"]:
        failed.setdefault(row["op"], [])
        if row["status"] in ("fail", "error", "blocked"):
            failed[row["op"]].append(row)
    return failed


def plugin_reports(tmp, module_text, timeout=900):
    """{test id: failure text or None} from one child pytest of ``module_text`` in ``tmp``."""
    from testing.test_pytest_plugin import _plugin_args

    (tmp / "test_pack_checks.py").write_text(module_text)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", *_plugin_args(),
                    "--rootdir", str(tmp), "--junitxml", str(tmp / "out.xml"),
                    "test_pack_checks.py"], cwd=tmp, env=env, capture_output=True, text=True,
                   timeout=timeout)
    reports = {}
    for case in ET.parse(tmp / "out.xml").getroot().iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        reports[case.get("name")] = None if failure is None else (failure.text or "")
    return reports


def missed(bugs, failed, pack):
    """{bug: why} for every bug of ``bugs`` ({op: (class, check, words)}) whose check did not
    fail with its words; ``failed`` maps 'pack.op' to its failed results."""
    out = {}
    for name, (_, check, words) in bugs.items():
        rows = failed.get(f"{pack}.{name}", [])
        hits = [r for r in rows if r["check"] == check]
        if not hits:
            out[name] = (f"{check} did not fail (failed: "
                         f"{sorted({r['check'] for r in rows}) or 'nothing'})")
        elif not any(words in r["detail"] for r in hits):
            out[name] = f"{check} failed without the words {words!r}: {hits[0]['detail'][:300]}"
    return out


def plugin_failed(reports):
    """The test ids the plugin failed."""
    return {name for name, text in reports.items() if text is not None}


def without_collateral(ids, stateful):
    """Case ids without the collateral failures of state bugs. An op keeping state outside ctx
    also fails whichever other check calls it after another sample left its state, and the CLI
    runs an op's cases in another order than pytest does; the bug's own check must agree.
    ``stateful``: {op short name: its own check}."""
    kept = set()
    for case in ids:
        op, rest = case.split("[", 1)
        own = stateful.get(op.split(".", 1)[1])
        if own is not None and rest.rstrip("]").split("-")[-1] != own:
            continue
        kept.add(case)
    return kept


def cli_failed(failed):
    """The same ids for the CLI's failed results."""
    return {f"{r['op']}[{r['backend']}-{r['dtype']}-{r['check']}]"
            for rows in failed.values() for r in rows}


def plugin_texts(reports, pack, name, check):
    """The plugin's failure texts of one op's check."""
    return [t for n, t in reports.items()
            if t is not None and n.startswith(f"{pack}.{name}[") and n.endswith(f"-{check}]")]


def plugin_flagged(reports, pack, correct):
    """The failed test ids of correct ops."""
    names = {f"{pack}.{c}" for c in correct}
    return [n for n, t in reports.items() if t is not None and n.split("[")[0] in names]


def pack_functions(package, name, modules, import_pack):
    """``(register_ops, module, registered)`` of a test pack made of a directory imported as
    ``package`` (by ``import_pack``), whose ``modules`` each have ``register(register)``:
    the pluggy hook registering them all under pack ``name``, the pack's module by name, and a
    context manager registering the pack for a block."""
    import importlib

    from opsdk import hookimpl

    @hookimpl
    def register_ops(register):
        """Every module's ops, under the pack's name."""
        for module_name in modules:
            importlib.import_module(f"{package}.{module_name}").register(register)

    def module(module_name):
        """The pack's module ``module_name``, for tests of a single op."""
        import_pack()
        return importlib.import_module(f"{package}.{module_name}")

    def registered():
        """The pack registered as ``name`` for a block (a context manager)."""
        from helpers.packages import registered_pack

        import_pack()
        return registered_pack(package, name)

    return register_ops, module, registered

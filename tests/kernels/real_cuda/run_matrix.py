"""The realcuda matrix: every correct kernel and planted bug of expected.py on the CUDA simulator.

    python tests/kernels/real_cuda/run_matrix.py                 # all entries, the three schedules
    python tests/kernels/real_cuda/run_matrix.py --schedules forward --ids gemm,gemm_no_sync_after_load
    python tests/kernels/real_cuda/run_matrix.py --json out.json # also the raw results

Prints, per bug and schedule, whether the simulator detected it (a report, or at least results
that differ from NumPy), named its cause, and named the faulting file:line; per correct kernel,
whether it ran unmodified, agreed with NumPy and raised no alarm, and its time. Each schedule runs
in a worker process of its own (OPSDK_CUDA_SIM_SCHEDULE is read by the simulator), which
appends a JSON line per entry; a worker that dies is restarted after the entry it died on.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
try:  # imported by the tests as part of their package; run as a script otherwise
    from . import expected, harness
except ImportError:
    sys.path.insert(0, HERE)
    import expected
    import harness

ENTRY_TIMEOUT_S = 60   # OPSDK_CUDA_SIM_TIMEOUT for each launch: a planted hang ends as a report


def default_build_dir():
    """The variant sources live in the user's own kernel cache (never a shared temporary directory,
    where another user could plant a .cu file), at a stable path, so their builds are reused."""
    from opsdk.kernels import cache_dir

    return os.path.join(str(cache_dir()), "realcuda-variants")


def worker(schedule, ids, out_path, build_dir):
    """Run the entries (correct ones first) and append one JSON line per entry to out_path."""
    entries = [expected.BY_ID[i] for i in ids]
    needs_workaround = set()
    for entry in entries:
        cu = getattr(entry, "cu", None) or f"{entry.module}.cu"
        record = {"id": entry.id, "schedule": schedule}
        if isinstance(entry, expected.Correct):
            result = harness.run_entry(entry, build_dir)
            if harness.is_build_failure(result) and cu in expected.WORKAROUNDS:
                record["unmodified_error"] = result["error"]["message"]
                needs_workaround.add(cu)
                result = harness.run_entry(entry, build_dir, workaround=True)
        else:
            result = harness.run_entry(entry, build_dir, workaround=cu in needs_workaround
                                       or _shipped_fails(cu, build_dir, needs_workaround))
        record.update(result)
        record["verdict"] = harness.classify(entry, result)
        with open(out_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, default=str) + "\n")


def _shipped_fails(cu, build_dir, needs_workaround):
    """For a bug run without its module's correct entry: does the shipped file build?"""
    if cu not in expected.WORKAROUNDS:
        return False
    probe = next(e for e in expected.CORRECT if f"{e.module}.cu" == cu)
    result = harness.run_entry(probe, build_dir)
    if harness.is_build_failure(result):
        needs_workaround.add(cu)
        return True
    return False


def run_schedule(schedule, ids, build_dir, log):
    """Run a worker for the schedule until every entry has a line; returns {id: record}."""
    os.makedirs(build_dir, exist_ok=True)
    out_path = os.path.join(build_dir, f"results-{schedule.replace(':', '_')}-{os.getpid()}.jsonl")
    if os.path.exists(out_path):
        os.remove(out_path)
    done, remaining = {}, list(ids)
    env = dict(os.environ, OPSDK_CUDA_SIM="1", OPSDK_CUDA_SIM_TIMEOUT=str(ENTRY_TIMEOUT_S))
    env.pop("OPSDK_CUDA_SIM_SCHEDULE", None)
    if schedule != "forward":
        env["OPSDK_CUDA_SIM_SCHEDULE"] = schedule
    while remaining:
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, __file__, "--worker", "--schedule", schedule, "--ids",
                               ",".join(remaining), "--out", out_path, "--build-dir", build_dir],
                              env=env, capture_output=True, text=True)
        done = _read(out_path)
        left = [i for i in remaining if i not in done]
        if left and left == remaining or (left and proc.returncode != 0):
            crashed = left[0]   # the worker died on this entry: record it and go on after it
            done[crashed] = {"id": crashed, "schedule": schedule, "crash": proc.returncode,
                             "stderr": proc.stderr[-2000:], "seconds": time.perf_counter() - started,
                             "verdict": {"status": "crash", "message": proc.stderr[-300:], "named": []}}
            with open(out_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(done[crashed]) + "\n")
            left = left[1:]
        remaining = left
        if log:
            print(f"[{schedule}] {len(ids) - len(remaining)}/{len(ids)} entries", file=sys.stderr, flush=True)
    return done


def _read(path):
    records = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                records[record["id"]] = record
    return records


def nvcc_checks(ids, build_dir):
    """Whether each variant source compiles for a GPU (nvcc --ptx through opsdk), where nvcc exists."""
    from opsdk.kernels import find_nvcc

    if not find_nvcc():
        return {}
    checks = {}
    for i in ids:
        entry = expected.BY_ID[i]
        module = harness.pack_module(entry.module)
        source = harness.variant_source(entry, os.path.join(build_dir, "nvcc"), workaround=False)
        kernels = module.kernels(source, dict(entry.options), tag=f"@nvcc@{i}")
        kernel = next(iter(vars(kernels).values()))
        try:
            check = kernel.check_cuda()
            checks[i] = "ok" if getattr(check, "checked", True) else f"not checked: {getattr(check, 'reason', '')}"
        except Exception as exc:  # a planted edit that is not valid CUDA
            checks[i] = f"FAILS: {str(exc).splitlines()[0][:120]}"
    return checks


# the op of the pack that runs each module's kernel stages (histogram64 belongs to no op)
OPS = {"layer_norm": "layer_norm", "masked_softmax": "masked_softmax", "rms_norm": "rms_norm",
       "bias_gelu": "bias_gelu", "roi_align": "roi_align", "scan": "cumsum", "gemm": "matmul",
       "embedding": "embedding", "cross_entropy": "cross_entropy"}
CHECKS = ("forward", "backward_agreement", "gradcheck", "cuda_sizes")
VIA_CHECK_CLASSES = ("global-race", "initcheck", "synccheck-shuffle")
_CLI = ("import sys, opsdk.plugins; sys.path.insert(0, sys.argv.pop(1)); import realcuda; "
        "opsdk.plugins.register_pack(realcuda, name='realcuda'); from opsdk.cli import main; "
        "main(sys.argv[1:], prog_name='opsdk')")


def op_of(bug):
    """The registered op whose checks run the bug's kernel, or None."""
    if bug.module == "segment":
        return "scatter_max" if "max" in bug.stages else "segment_sum"
    if bug.module == "histogram":
        return None if "h64" in bug.stages else "bincount"
    return OPS.get(bug.module)


def check_statuses(op, dtype, variant_json):
    """{check: (status, message)} of `opsdk check realcuda.<op> --backend cuda --simulate` (a few checks)."""
    env = dict(os.environ)
    env.pop("REALCUDA_VARIANT", None)
    if variant_json:
        env["REALCUDA_VARIANT"] = variant_json
    args = [sys.executable, "-c", _CLI, harness.PACK_SRC, "check", f"realcuda.{op}", "--backend", "cuda",
            "--simulate", "--dtype", dtype, "--json", "--no-progress"]
    for name in CHECKS:
        args += ["--check", name]
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    try:
        results = json.loads(done.stdout)["results"]
    except (ValueError, KeyError):
        return {"(run)": ("error", (done.stderr or done.stdout)[-400:])}
    return {r["check"]: (r["status"], r.get("message") or "") for r in results}


def _variant_json(entry, build_dir, workaround):
    """A REALCUDA_VARIANT file naming the entry's source and adapter options."""
    path = os.path.join(build_dir, f"{entry.id}{'+wa' if workaround else ''}.variant.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"op": entry.module, "source": harness.variant_source(entry, build_dir, workaround),
                   "options": dict(entry.options)}, f)
    return path


def via_check(ids, build_dir):
    """Which bugs `opsdk check --simulate` fails on, beyond what it fails on the correct op."""
    baselines, verdicts = {}, {}
    os.makedirs(build_dir, exist_ok=True)
    for i in ids:
        bug = expected.BY_ID[i]
        op, dtype = op_of(bug), next((d for d in bug.dtypes if d in ("float32", "float64")), None)
        if op is None or dtype is None:
            verdicts[i] = ("n/a", "no registered op runs this kernel in float32/float64")
            continue
        workaround = f"{bug.module}.cu" in expected.WORKAROUNDS
        if (op, dtype) not in baselines:   # the correct op, through the same workaround as the bug
            correct = next(e for e in expected.CORRECT if e.module == bug.module)
            baselines[op, dtype] = check_statuses(op, dtype, _variant_json(correct, build_dir, workaround))
        started = time.perf_counter()
        got = check_statuses(op, dtype, _variant_json(bug, build_dir, workaround))
        new = {c: got[c] for c in got if got[c][0] in ("fail", "error") and baselines[op, dtype].get(c, ("",))[0] == "pass"}
        took = time.perf_counter() - started
        if new:
            check, (status, message) = next(iter(new.items()))
            verdicts[i] = ("detected", f"{check} {status} ({took:.0f} s): {message[:200]}")
        else:
            verdicts[i] = ("missed", f"the checks that pass on the correct op pass here too ({took:.0f} s)")
    return verdicts


def cell(entry, record):
    """One bug x schedule cell: D (detected by a report) or ~ (only by a wrong result) or - (missed),
    then c / l when the cause / the faulting line is named."""
    v = record["verdict"]
    if v["status"] == "crash":
        return "CRASH"
    if not v.get("detected"):
        return "-"
    mark = "D" if v["status"] == "error" else "~"
    mark += "c" if v.get("cause_ok") else ("." if v.get("cause_ok") is False else " ")
    mark += "l" if v.get("line_ok") else ("." if v.get("line_ok") is False else " ")
    return mark


def report(results, schedules, nvcc):
    bugs = [e for e in expected.BUGS if any(e.id in results[s] for s in schedules)]
    correct = [e for e in expected.CORRECT if any(e.id in results[s] for s in schedules)]
    print("\nCorrect kernels (must run unmodified, agree with NumPy, raise no alarm)\n")
    print(f"{'entry':26} {'unmodified':12} " + " ".join(f"{s:>18}" for s in schedules) + "  nvcc")
    for e in correct:
        recs = [results[s].get(e.id) for s in schedules]
        first = next(r for r in recs if r)
        unmodified = "REFUSED" if first.get("unmodified_error") else "ran"
        cells = []
        for r in recs:
            if r is None:
                cells.append(f"{'':>18}")
                continue
            v = r["verdict"]
            state = "ok" if v.get("ok") else ("FALSE ALARM" if v["status"] == "error" else v["status"].upper())
            cells.append(f"{state + ' ' + format(r.get('seconds', 0), '.1f') + 's':>18}")
        print(f"{e.id:26} {unmodified:12} " + " ".join(cells) + f"  {nvcc.get(e.id, '')}")
        for r in recs:
            if r and r.get("unmodified_error"):
                print(f"    unmodified: {r['unmodified_error'].splitlines()[0][:160]}")
                break
        for s, r in zip(schedules, recs):
            if r and not r["verdict"].get("ok"):
                print(f"    [{s}] {r['verdict']['message'].splitlines()[0][:200] if r['verdict']['message'] else ''}")
    print("\nPlanted bugs: D reported, ~ only wrong results, - missed; then c cause named, l faulting line "
          "named (. = not named)\n")
    print(f"{'bug':40} {'class':22} {'fault':>6} " + " ".join(f"{s:>10}" for s in schedules))
    for e in bugs:
        cells = [cell(e, results[s][e.id]) if e.id in results[s] else "" for s in schedules]
        fault = str(e.fault) if e.fault else "-"
        print(f"{e.id:40} {e.cls:22} {fault:>6} " + " ".join(f"{c:>10}" for c in cells)
              + ("" if e.reachable else "  (needs > 2^31 elements)") + ("" if nvcc.get(e.id, "ok") == "ok"
                                                                         else f"  nvcc: {nvcc[e.id]}"))
    print("\nWhat the simulator said (first schedule that ran the bug)\n")
    for e in bugs:
        r = next(results[s][e.id] for s in schedules if e.id in results[s])
        v = r["verdict"]
        named = ", ".join(f"{f}:{line}" for f, line in v.get("named", [])) or "no file:line"
        text = (v["message"] or "").replace("\n", " ")[:230]
        print(f"{e.id}: [{v['status']}] {text}\n    lines named: {named}; wanted: line {e.fault} ({e.cause})")
    _summary(bugs, correct, results, schedules)


def _summary(bugs, correct, results, schedules):
    print("\nSummary")
    reachable = [e for e in bugs if e.reachable]
    for s in schedules:
        recs = [results[s][e.id] for e in reachable if e.id in results[s]]
        detected = sum(1 for r in recs if r["verdict"].get("detected"))
        reported = sum(1 for r in recs if r["verdict"]["status"] == "error")
        cause = sum(1 for r in recs if r["verdict"].get("cause_ok"))
        lines = sum(1 for r in recs if r["verdict"].get("line_ok"))
        alarms = sum(1 for e in correct if e.id in results[s] and not results[s][e.id]["verdict"].get("ok"))
        seconds = sum(r.get("seconds", 0) for r in results[s].values())
        print(f"  {s:10} bugs detected {detected}/{len(recs)} (reported {reported}), cause named {cause}, "
              f"faulting line named {lines}; correct entries failing {alarms}/{len(correct)}; {seconds:.0f} s")
    for cls in expected.CLASSES:
        members = [e for e in reachable if e.cls == cls]
        if not members:
            continue
        got = [sum(1 for e in members if e.id in results[s] and results[s][e.id]["verdict"].get("detected"))
               for s in schedules]
        print(f"  {cls:22} {len(members)} planted, detected per schedule: {got}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schedules", default=",".join(harness.SCHEDULES))
    parser.add_argument("--ids", default="", help="comma-separated entries of expected.py (default: all)")
    parser.add_argument("--json", help="write the raw results here")
    parser.add_argument("--build-dir", default=None)
    parser.add_argument("--no-nvcc", action="store_true", help="skip the nvcc --ptx check of every variant")
    parser.add_argument("--via-check", nargs="?", const="classes", default=None,
                        help="also run `opsdk check --simulate` (forward, backward_agreement, gradcheck, cuda_sizes) "
                             "on bugs: the given ids, or by default the global races, initcheck and shuffle bugs")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--schedule", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    build_dir = args.build_dir or default_build_dir()
    ids = [i for i in args.ids.split(",") if i] or [e.id for e in expected.CORRECT + expected.BUGS]
    unknown = [i for i in ids if i not in expected.BY_ID]
    if unknown:
        parser.error(f"unknown entries {unknown}; expected: ids of expected.py")
    if args.worker:
        worker(args.schedule, ids, args.out, build_dir)
        return 0
    ids = [e.id for e in expected.CORRECT if e.id in ids] + [e.id for e in expected.BUGS if e.id in ids]
    schedules = [s for s in args.schedules.split(",") if s]
    results = {}
    for s in schedules:
        started = time.perf_counter()
        results[s] = run_schedule(s, ids, build_dir, log=True)
        print(f"[{s}] done in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    nvcc = {} if args.no_nvcc else nvcc_checks(ids, build_dir)
    report(results, schedules, nvcc)
    if args.via_check:
        chosen = [b.id for b in expected.BUGS if b.id in ids and (b.cls in VIA_CHECK_CLASSES if
                  args.via_check == "classes" else b.id in args.via_check.split(","))]
        checked = via_check(chosen, build_dir)
        print("\nThrough opsdk check --simulate (only checks that pass on the correct op count)\n")
        for i, (verdict, text) in checked.items():
            print(f"{i:40} {verdict:9} {text}")
        results["via_check"] = checked
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"schedules": schedules, "results": results, "nvcc": nvcc}, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run Paddle's own dygraph unit tests with ``paddle`` resolving to opsdk; count what passes.

The tests are Paddle's (``test/legacy_test/`` in the PaddlePaddle repository), fetched by you into
a directory outside this repository; they are never copied here. Usage::

    python tests/paddle_compat/legacy/run_legacy.py DIR [--real | --against-real] [--json OUT]
        [--group N ...]

DIR holds the test files listed in FILES (others found there run too, after them; with
``--group`` only the files of those groups run), and the helper modules they import
(test_imperative_base.py, rnn_numpy.py, utils.py, ...): DIR is put first on sys.path. ``--real``
runs them under real PaddlePaddle instead (the baseline); ``--against-real`` runs the baseline
too (in a process of its own) and counts only the tests that pass on Paddle. Under opsdk a test
that fails in static-graph mode (see paddle_alias) is reported as "static" and left out of the
count, as the static-mode internals opsdk does not have. Prints one line per test and the
totals; exits 0.

How FILES was chosen (before any was run under opsdk, none dropped after): files of
test/legacy_test/ whose subject is dygraph autograd, tensors, layers and containers, or a
maths op of docs/paddle.md, taken in the version the code index stores, except those that
import op_test (its OpTest machinery is static-graph internals) or the removed paddle.fluid.
Each file runs in a process of its own, as Paddle's CI runs them, under Paddle and under opsdk
alike: a file that leaves Paddle in static mode, its default dtype or a flag changed, affects
only its own later tests (test_pylayer_op sets FLAGS_call_stack_level=3, under which Paddle
3.3.1 crashes in later files' in-place ops). A test that kills its file's process, or makes
no progress for TEST_TIMEOUT seconds, is reported as an error and the file goes on from the next
test in a new process; a file that dies before its first test has all its tests reported as
errors.
"""
import argparse
import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import unittest

FIRST = (
    # autograd: PyLayer, hooks, pruning, detach, saved-tensor hooks
    "test_pylayer_op.py", "test_tensor_register_hook.py", "test_imperative_auto_prune.py",
    "test_optimizer_for_varbase.py", "test_detach.py", "test_clip_grad_norm_.py",
    "test_clip_grad_value_.py", "test_saved_tensors_hooks.py", "test_retain_graph.py",
    "test_imperative_partitial_backward.py",
    # tensors
    "test_tensor_fill_.py", "test_tensor_zero_.py", "test_view_op_reuse_allocation.py",
    "test_Tensor_type.py", "test_tensor_scalar_type_promotion_dynamic.py",
    # layers and containers
    "test_imperative_container_sequential.py", "test_imperative_container_layerlist.py",
    "test_imperative_container_parameterlist.py", "test_imperative_named_members.py",
    "test_imperative_container_layerdict.py", "test_imperative_layer_apply.py",
    # maths ops
    "test_hypot.py", "test_gcd.py", "test_ldexp.py", "test_inner.py", "test_frac_api.py",
    "test_nan_to_num_op.py", "test_nansum_api.py", "test_diff_op.py",
)
SECOND = (
    # Second group, chosen 2026-12-03 by the same rule before any of them ran under opsdk (the
    # first group had been tuned against). Left out on reading: files importing op_test in the
    # version the index stores (most nn.functional, loss and optimizer API tests), or
    # paddle.fluid; tests of the C++ DenseTensor (test_tensor_copy_from, test_tensor_to_numpy);
    # paddle.unflatten (not supported); files over 60,000 characters
    # (test_tensor_type_promotion) or with a single test outside static mode
    # (test_lr_scheduler). Ordered so that the files that leave Paddle in static mode, or its
    # default dtype changed, come last. First count, before any fix it led to: 677 of the 746
    # tests of this group that pass under Paddle 3.3.1 passed under opsdk (90.8%; 30 static).
    # After the fixes, each file in a process of its own: 745 of 755 (98.7%).
    # autograd: in-place versions, double and triple grad, backward with grad tensors, no_grad
    "test_inplace.py", "test_imperative_triple_grad.py",
    "test_imperative_thread_local_has_grad.py", "test_paddle_imperative_double_grad.py",
    "test_custom_grad_input.py",
    # layers and optimizers
    "test_nn_functional_embedding_dygraph.py", "test_adamax_api.py", "test_identity_op.py",
    # tensors and maths ops
    "test_is_tensor.py", "test_std_layer.py", "test_chunk_op.py", "test_rot90_op.py",
    "test_renorm_op.py", "test_max_min_amax_amin_op.py", "test_label_smooth_functional.py",
    "test_einsum.py",
    # default dtype, grad-mode decorators (they leave Paddle's default dtype or mode changed)
    "test_default_dtype.py", "test_imperative_decorator.py",
)
THIRD = (
    # Third group, chosen 2026-12-03 by the same rule, on reading only, before any of them ran
    # under opsdk: the subjects opsdk was then getting (recurrent layers, MultiHeadAttention
    # and Transformer, scaled_dot_product_attention, grid_sample and affine_grid, max_unpool,
    # conv3d_transpose, fold/unfold, paddle.io, paddle.metric, nn.initializer, weight_norm and
    # spectral_norm, regularizers, lr schedulers), each file in the version the code index
    # lists for its path (for test_metrics the one without paddle.fluid). The recurrent tests
    # are Paddle's test/rnn/ folder; they and test_transformer_api / test_initializer_nn import
    # helpers that are fetched beside them into DIR (which is on sys.path): rnn_numpy.py and
    # convert.py (test/rnn/), utils.py (test/legacy_test/). Left out on reading: files that
    # import op_test (test_unpool_op, test_fold_op, test_unfold_op, test_nn_init_function) or
    # paddle.fluid (test_grid_sample_function, test_functional_conv3d_transpose); files whose
    # every test builds a static program first (test/rnn/test_rnn_api, test_rnn_cells_static,
    # test_rnn_nets_static, test_rnn_cudnn_params_packing; test_regularizer,
    # test_regularizer_api; test_dataloader_early_reset; test_lr_scheduler, as in the second
    # group; test_initializer, whose Orthogonal, Dirac and Bilinear tests compare with a
    # static program); test_scaled_dot_product_attention (every test needs CUDA);
    # test_multiprocess_dataloader_dynamic (its data comes from the static-mode test file).
    # Kept although most of their tests are static (those are left aside under opsdk):
    # test_conv3d_transpose_layer and test_affine_grid_function (their error cases are
    # dygraph), test_initializer_nn (a third of it is dygraph). Under Paddle 3.3.1, 193 of its
    # 200 tests pass (the others download MNIST, or hang or fail in DataLoader workers).
    # First count, after merging the features and before any fix it led to: 40 of the 188
    # tests of this group that pass under Paddle 3.3.1 passed under opsdk (21.3%; 5 static;
    # the 46 recurrent tests never ran: their load_tests needs base.is_compiled_with_cuda).
    # Its 148 failures: alias stand-ins missing for Paddle internals (what utils.py imports,
    # pir_utils, base.is_compiled_with_cuda, enable_imperative, core.eager.Tensor,
    # hapi.model.to_list, nn.layer.transformer, static.nn.sequence_lod): 62 now pass and 47
    # went on to static-only names; a wrong error class (affine_grid of out_shape='not_valid')
    # and a wrong message (ConcatDataset of an IterableDataset), fixed in opsdk; 30 runTests
    # of test_rnn_nets that pass their dygraph checks and end in paddle.jit.save's static
    # export, now counted as static like static mode; 7 left: paddle.vision missing (3),
    # Paddle internals (io.dataloader.worker._generate_states; _manual_program_seed giving two
    # layers the same weights in 3 transformer tests).
    # After the alias stand-ins and fixes: 104 of 111 (93.7%; 82 static).
    # recurrent layers: cells, SimpleRNN/LSTM/GRU nets, the RNN and BiRNN wrappers
    "test_rnn_cells.py", "test_rnn_nets.py", "test_wrappers.py",
    # attention and transformer layers
    "test_transformer_api.py",
    # paddle.io: samplers, datasets, random_split, DataLoader (workers too)
    "test_batch_sampler.py", "test_dataloader_dataset.py",
    "test_multiprocess_dataloader_dataset.py",
    "test_multiprocess_dataloader_iterable_dataset_split.py",
    "test_multiprocess_dataloader_exception.py",
    # paddle.metric
    "test_metrics.py",
    # nn.utils weight_norm / spectral_norm, initializers
    "test_dygraph_weight_norm.py", "test_dygraph_spectral_norm.py", "test_initializer_nn.py",
    # conv3d_transpose, affine_grid
    "test_conv3d_transpose_layer.py", "test_affine_grid_function.py",
)
FILES = FIRST + SECOND + THIRD
GROUPS = {"1": FIRST, "2": SECOND, "3": THIRD}
# a test with no progress for this long is reported as an error and its file goes on from the
# next test (under Paddle 3.3.1 here, DataLoader with worker processes never returns)
TEST_TIMEOUT = 90


def _reason(err):
    """The last line of a traceback: the exception and its message, shortened."""
    line = err.strip().splitlines()[-1] if err.strip() else "?"
    return line if len(line) <= 160 else line[:157] + "..."


def _static_export(err):
    """opsdk's refusal of a static-graph feature of its public API (paddle.jit.save exports a
    static inference program)."""
    return err[0].__name__ == "UnsupportedError" and "no static graph" in str(err[1])


class _Collect(unittest.TestResult):
    """Outcomes; under opsdk, a test that fails in static-graph mode (it reached a static-only
    name, called enable_static(), Paddle's static mode was in force when it failed, or opsdk
    refused to export a static program) is "static", not counted."""

    def __init__(self, static_now=None, emit=lambda record: None, index=None):
        super().__init__()
        self.outcomes = []
        self._static_now = static_now
        self._emit = emit
        self._index = index or {}

    def _record(self, test_id, outcome, reason):
        self.outcomes.append((test_id, outcome, reason))
        self._emit({"test": test_id, "outcome": outcome, "reason": reason})

    def _bad(self, test, err, outcome):
        reason = _reason(self._exc_info_to_string(err, test))
        if self._static_now is not None and (err[0].__name__ == "StaticGraphUsed"
                                             or _static_export(err) or self._static_now()):
            outcome = "static"
        self._record(test.id(), outcome, reason)

    def startTest(self, test):
        super().startTest(test)
        self._emit({"start": self._index.get(id(test)), "test": test.id()})
        if self._static_now is not None:
            sys.modules["paddle_alias"].start_test()

    def addSuccess(self, test):
        self._record(test.id(), "passed", "")

    def addFailure(self, test, err):
        self._bad(test, err, "failed")

    def addError(self, test, err):
        self._bad(test, err, "error")

    def addSkip(self, test, reason):
        self._record(test.id(), "skipped", reason)


def _test_names(path):
    """Test ids a file defines, found without importing it (its import may be what fails)."""
    import ast
    tree = ast.parse(open(path, encoding="utf-8").read())
    stem = os.path.splitext(os.path.basename(path))[0]
    out = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name.startswith("test"):
                    out.append(f"{stem}.{node.name}.{item.name}")
    return out


def _flat(suite):
    """The tests of a suite (load_tests may nest suites), in run order."""
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from _flat(item)
        else:
            yield item


def run_file(path, static_now=None, first=0, emit=lambda record: None):
    """(test id, outcome, reason) for every test of one file from its first-th on (ids not yet
    numbered). ``emit`` gets {"total": n} first, then {"start": i, "test": id} as each test
    begins and each outcome as it ends, so that a parent sees how far a file got."""
    stem = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(stem, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:
        reason = "import: " + _reason(traceback.format_exc())
        outcomes = [(name, "error", reason) for name in _test_names(path)]
        for test_id, outcome, why in outcomes:
            emit({"test": test_id, "outcome": outcome, "reason": why})
        return outcomes
    tests = list(_flat(unittest.defaultTestLoader.loadTestsFromModule(module)))
    emit({"total": len(tests)})
    index = {id(test): i for i, test in enumerate(tests)}
    result = _Collect(static_now, emit, index)
    stdout = sys.stdout
    sys.stdout = io.StringIO()  # the tests print gradients; keep the report readable
    try:
        unittest.TestSuite(tests[first:]).run(result)
    finally:
        sys.stdout = stdout
    return result.outcomes


def _numbered(outcomes):
    """Outcomes with repeated test ids told apart by a "#2", "#3", ... suffix. Classes made by a
    factory share one id (``create_test_case.<locals>.TestPromotion.test_x``); numbered in run
    order, the same test gets the same id under Paddle and under opsdk."""
    seen = {}
    out = []
    for test_id, outcome, reason in outcomes:
        seen[test_id] = seen.get(test_id, 0) + 1
        out.append((test_id if seen[test_id] == 1 else f"{test_id}#{seen[test_id]}", outcome,
                    reason))
    return out


def _baseline(folder, passed_on):
    """The ids of the tests that pass under real PaddlePaddle (run in a process of its own)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "real.json")
        subprocess.run([sys.executable, os.path.abspath(__file__), folder, "--real", "--json",
                        out] + passed_on, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(out, encoding="utf-8") as f:
            return {r["test"] for r in json.load(f) if r["outcome"] == "passed"}


def _run_child(folder, name, real, first, out, timeout):
    """Run one file in a child process from its first-th test, streaming to ``out``; the
    records it wrote, and why it stopped early ("" when it finished)."""
    cmd = [sys.executable, os.path.abspath(__file__), folder, "--one", name, "--first",
           str(first), "--json", out] + (["--real"] if real else [])
    # a session of its own, so that a hung test's worker processes go with it
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    seen, last = -1, time.monotonic()
    while proc.poll() is None:
        time.sleep(0.5)
        size = os.path.getsize(out) if os.path.exists(out) else 0
        if size != seen:
            seen, last = size, time.monotonic()
        elif time.monotonic() - last > timeout:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            break
    records = []
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.endswith("\n")]
    if records and "done" in records[-1]:
        return records, ""
    if proc.returncode == -signal.SIGKILL and time.monotonic() - last > timeout:
        return records, f"timed out: no progress for {timeout} s"
    return records, f"the file's process died (exit status {proc.returncode})"


def _run_apart(folder, name, real, timeout):
    """run_file for one file in a child process. A test that hangs (no progress for
    ``timeout`` seconds) or kills the process is reported as an error, and the file goes on
    from the next test in a new process; every test is an error if the file never starts."""
    outcomes, first = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        while True:
            out = os.path.join(tmp, f"from{first}.jsonl")
            records, stopped = _run_child(folder, name, real, first, out, timeout)
            outcomes += [(r["test"], r["outcome"], r["reason"]) for r in records
                         if "outcome" in r]
            if not stopped:
                return _numbered(outcomes)
            starts = [i for i, r in enumerate(records) if "start" in r]
            if not starts:  # it died before its first test: nothing to resume
                return _numbered(outcomes) if outcomes else [
                    (t, "error", stopped) for t in _test_names(os.path.join(folder, name))]
            last = records[starts[-1]]
            if not any("outcome" in r for r in records[starts[-1]:]):
                outcomes.append((last["test"], "error", stopped))
            total = next(r["total"] for r in records if "total" in r)
            first = last["start"] + 1
            if first >= total:
                return _numbered(outcomes)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="directory holding Paddle's test files")
    ap.add_argument("--real", action="store_true", help="run under real PaddlePaddle")
    ap.add_argument("--against-real", action="store_true",
                    help="count only the tests that pass under real PaddlePaddle")
    ap.add_argument("--json", help="write the outcomes to this file")
    ap.add_argument("--group", action="append", choices=sorted(GROUPS),
                    help="run only this group of FILES (repeatable); other files in DIR are "
                         "then left out")
    ap.add_argument("--test-timeout", type=float, default=TEST_TIMEOUT,
                    help="seconds without progress after which a test counts as hung")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # a child process: run this file only
    ap.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)  # from this test
    args = ap.parse_args(argv)
    if args.one:
        static_now = None
        if not args.real:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import paddle_alias
            paddle_alias.install()
            static_now = paddle_alias.in_static_mode
        # Paddle's tests import helper modules from their own folder (test_imperative_base, ...)
        sys.path.insert(0, os.path.abspath(args.dir))
        stream = open(args.json, "w", encoding="utf-8")

        def emit(record):
            stream.write(json.dumps(record) + "\n")
            stream.flush()
        run_file(os.path.join(args.dir, args.one), static_now, args.first, emit)
        emit({"done": True})
        stream.close()
        return 0
    else:
        passed_on = [a for g in args.group or () for a in ("--group", g)]
        passed_on += ["--test-timeout", str(args.test_timeout)]
        baseline = _baseline(args.dir, passed_on) if args.against_real else None
        chosen = [f for g in args.group for f in GROUPS[g]] if args.group else FILES
        names = [f for f in chosen if os.path.exists(os.path.join(args.dir, f))]
        if not args.group:
            names += sorted(f for f in os.listdir(args.dir)
                            if f.startswith("test_") and f.endswith(".py") and f not in names)
        outcomes = []
        for name in names:
            outcomes += _run_apart(args.dir, name, args.real, args.test_timeout)
        for test_id, outcome, reason in outcomes:
            print(f"{outcome:8s} {test_id}" + (f"  -- {reason}" if reason else ""))
        passed = sum(1 for _, o, _ in outcomes if o == "passed")
        print(f"\n{passed} passed of {len(outcomes)} ({'paddle' if args.real else 'opsdk'})")
        static = sum(1 for _, o, _ in outcomes if o == "static")
        if static:
            print(f"{static} left aside: they fail in static-graph mode")
        if baseline is not None:
            # a test that passes under Paddle but never ran under opsdk (its file's load_tests
            # failed, say) counts as failing
            ran = {t for t, _, _ in outcomes}
            for test_id in sorted(baseline - ran):
                print(f"missing  {test_id}  -- it passes under PaddlePaddle; it did not run")
            static = {t for t, o, _ in outcomes if o == "static"}
            counted = baseline - static
            ours = sum(1 for t, o, _ in outcomes if t in baseline and o == "passed")
            print(f"{ours} of the {len(counted)} tests that pass under PaddlePaddle pass under "
                  "opsdk")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([{"test": t, "outcome": o, "reason": r} for t, o, r in outcomes], f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

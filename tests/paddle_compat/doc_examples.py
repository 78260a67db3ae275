"""Paddle's own docstring examples, run under Paddle and under ``import opsdk as paddle``.

Every public name the name walk finds supported by opsdk has a docstring in Paddle 3.3.1, most
with a ``>>>`` example written by Paddle's authors: material nobody here wrote. Each example runs
twice, in two worker processes (real Paddle; opsdk installed as ``paddle`` in ``sys.modules``, as
the legacy runner does), statement by statement with the seed fixed. What is compared: the first
statement that raises and the exception's class, and every variable the example leaves bound to a
tensor, a number or a list of them: shape, dtype, stop_gradient and values (values only where the
example draws no random numbers and builds no layer with random weights; shapes and dtypes always).

    cd tests && python -m paddle_compat.doc_examples            # the table and each difference
    cd tests && python -m paddle_compat.doc_examples -k softmax # only names containing 'softmax'

An example that raises under Paddle (a GPU-only example, a doc typo) is left out of the count;
one with static-graph code runs up to its first static-graph line (opsdk has dynamic mode only).
"""
import argparse
import doctest
import io
import contextlib
import os
import pickle
import re
import signal
import subprocess
import sys
import tempfile
import warnings

import numpy as np

from .harness import values_close

SPACES = ("", "Tensor", "nn", "nn.functional", "linalg", "autograd", "incubate.autograd",
          "optimizer", "optimizer.lr", "nn.initializer", "nn.utils", "metric", "amp", "device",
          "framework", "io", "regularizer")
TIMEOUT_S = 20  # one example's limit (a hang is reported as such, never waited out)
# the examples' words that mean values depend on random draws (or on random initial weights)
RANDOM = re.compile(r"rand|normal|uniform|bernoulli|multinomial|poisson|shuffle|dropout|"
                    r"rrelu|exponential_|cauchy_|geometric_|binomial|standard_gamma|"
                    r"linear|conv|embedding|lstm|gru|rnn|attention|transformer|parameter|"
                    r"norm\(|batchnorm|layernorm|groupnorm|instancenorm|prelu|optimizer|"
                    r"sequential|layerlist|layerdict|empty|bilinear", re.IGNORECASE)
SKIP_MARK = re.compile(r"doctest:\s*\+(SKIP|REQUIRES)")
# static-graph code (opsdk has dynamic mode only): an example is run up to its first such line
STATIC = re.compile(r"enable_static|paddle\.static\.|pir_utils|static\.Program|program_guard")


def _import_paddle():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle
    return paddle


def _object(paddle, space, name):
    if space == "Tensor":
        return getattr(paddle.Tensor, name, None)
    import importlib
    module = importlib.import_module("paddle" + ("." + space if space else ""))
    return getattr(module, name, None)


def collect(pattern=None):
    """[(key, source statements)] for each supported name whose Paddle docstring has an example.

    The key is 'space.name'; several names sharing one docstring (aliases) keep the first."""
    from .namewalk import walk
    paddle = _import_paddle()
    result = walk(paddle)
    parser = doctest.DocTestParser()
    seen, out = set(), []
    for space in SPACES:
        supported = result[space]["supported"] if space in result else \
            _supported_outside_the_walk(paddle, space)
        for name in supported:
            key = f"{space}.{name}" if space else name
            if pattern and pattern not in key:
                continue
            doc = getattr(_object(paddle, space, name), "__doc__", None) or ""
            try:
                examples = parser.get_examples(doc)
            except ValueError:  # inconsistent indentation in Paddle's docstring
                continue
            statements = [e.source for e in examples if not SKIP_MARK.search(e.source)]
            cut = next((i for i, src in enumerate(statements) if STATIC.search(src)), None)
            statements = statements[:cut]
            if not statements or doc in seen or any(SKIP_MARK.search(e.source)
                                                    for e in examples):
                continue
            seen.add(doc)
            out.append((key, statements))
    return out


def _supported_outside_the_walk(paddle, space):
    """Public names of a namespace the walk does not cover (linalg) that opsdk also has."""
    import importlib
    import opsdk
    module = importlib.import_module("paddle." + space)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n[0] == "_"]
    mine = importlib.import_module("opsdk." + space)

    def has(n):
        try:
            return hasattr(mine, n)
        except opsdk.errors.OpsdkError:  # a name refused by design (linalg.eig)
            return False
    return sorted(n for n in set(names) if has(n))


# the examples that differ, each for a reason docs/paddle.md gives ("Paddle's docstring
# examples"); the slow test fails on any other difference and on a reason that no longer applies
EXPECTED = {
    "Tensor.eigvalsh": "complex numbers: the example's matrix is complex",
    "linalg.eigh": "complex numbers: the example's matrix is complex",
    "sgn": "complex numbers: the example's input is complex",
    "vander": "complex numbers: the example builds paddle.complex",
    "Tensor.householder_product": "Paddle 3.3.1 writes into its input x (opsdk leaves x alone)",
    "Tensor.ormqr": "Paddle 3.3.1 writes into its input (opsdk leaves it alone)",
    "nn.functional.hsigmoid_loss": "the example's label 5 with num_classes=5 makes Paddle read "
                                   "past its weight; opsdk refuses the label",
    "softmax": "paddle.compat, PyTorch-style functions, is not provided",
    "device.is_bf16_supported": "the example goes on to paddle.cuda, which is not provided",
    "device.manual_seed": "the example goes on to paddle.cuda, which is not provided",
    "device.is_compiled_with_distribute": "False in opsdk (no distributed runtime); True in "
                                          "Paddle's CPU build",
    "metric.Auc": "the example trains through paddle.Model (the high-level API), not provided",
    "metric.Precision": "the example trains through paddle.Model, not provided",
    "metric.Recall": "the example trains through paddle.Model, not provided",
}


# -- a worker: runs every example in one process ---------------------------------------------
def _observe(value, depth=0):
    """A comparable, picklable view of a value (None for what is not compared)."""
    if depth > 2:
        return None
    if hasattr(value, "numpy") and hasattr(value, "stop_gradient") and hasattr(value, "shape"):
        try:
            arr = np.asarray(value.numpy())
        except Exception as e:  # noqa: BLE001 -- reading it failed: that is the observation
            return ("tensor-unreadable", type(e).__name__)
        return ("tensor", list(value.shape), str(arr.dtype), bool(value.stop_gradient), arr)
    if isinstance(value, (bool, int, float, np.number, np.bool_)):
        return ("number", value.item() if isinstance(value, np.generic) else value)
    if isinstance(value, np.ndarray):
        return ("array", value.shape, str(value.dtype), value)
    if isinstance(value, (list, tuple)) and value and len(value) <= 16:
        items = [_observe(v, depth + 1) for v in value]
        if all(i is not None for i in items):
            return ("list", items)
    return None


def _reset(paddle):
    """Undo what an earlier example may have left set (static mode, the default dtype)."""
    paddle.disable_static()
    paddle.set_default_dtype("float32")
    paddle.set_grad_enabled(True)
    paddle.seed(2024)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_worker(examples, use_opsdk, out):
    """Run each example; append (key, {"raised": (index, class name) or None, "vars": {name:
    observation}}) to the file ``out`` as each one ends (a crash loses only the running one)."""
    if use_opsdk:
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "legacy"))
        import paddle_alias
        paddle_alias.install()
    paddle = _import_paddle()
    signal.signal(signal.SIGALRM, _alarm)
    for key, statements in examples:
        env = {"__name__": "__doc_example__"}
        raised = None
        _reset(paddle)
        sink = io.StringIO()
        for i, src in enumerate(statements):
            signal.alarm(TIMEOUT_S)
            try:
                with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), \
                        warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(compile(src, f"<{key} example {i}>", "exec"), env)
            except _Timeout:
                raised = (i, "Timeout")
            except BaseException as e:  # noqa: BLE001 -- the class is the observation
                raised = (i, type(e).__name__)
            finally:
                signal.alarm(0)
            if raised:
                break
        vars_ = {}
        for name, value in env.items():
            if name.startswith("_") or name in ("paddle", "np", "numpy", "F", "nn"):
                continue
            obs = _observe(value)
            if obs is not None:
                vars_[name] = obs
        pickle.dump((key, {"raised": raised, "vars": vars_}), out)
        out.flush()


# -- comparing ----------------------------------------------------------------------------------
def _tolerance(dtype):
    return (1e-3, 1e-3) if dtype in ("float16", "bfloat16") else \
        (1e-5, 1e-6) if dtype == "float32" else (1e-9, 1e-12)


def _differ(a, b, values):
    """A short description of how observation b (opsdk) differs from a (Paddle), or None."""
    if a[0] != b[0]:
        return f"{a[0]} vs {b[0]}"
    if a[0] == "tensor":
        _, shape, dtype, sg, arr = a
        _, shape2, dtype2, sg2, arr2 = b
        if shape != shape2:
            return f"shape {shape} vs {shape2}"
        if dtype != dtype2:
            return f"dtype {dtype} vs {dtype2}"
        if sg != sg2:
            return f"stop_gradient {sg} vs {sg2}"
        if values and arr.size and not _close(arr, arr2, dtype):
            return f"values {_brief(arr)} vs {_brief(arr2)}"
        return None
    if a[0] == "number":
        if type(a[1]) is not type(b[1]) and not (isinstance(a[1], (int, float)) and
                                                isinstance(b[1], (int, float))):
            return f"{type(a[1]).__name__} vs {type(b[1]).__name__}"
        if values and not _close(np.asarray(a[1]), np.asarray(b[1]), "float32"):
            return f"{a[1]!r} vs {b[1]!r}"
        return None
    if a[0] == "array":
        if a[1] != b[1] or a[2] != b[2]:
            return f"array {a[1]} {a[2]} vs {b[1]} {b[2]}"
        if values and a[3].size and not _close(a[3], b[3], a[2]):
            return f"values {_brief(a[3])} vs {_brief(b[3])}"
        return None
    if a[0] == "list":
        if len(a[1]) != len(b[1]):
            return f"{len(a[1])} items vs {len(b[1])}"
        for k, (x, y) in enumerate(zip(a[1], b[1])):
            d = _differ(x, y, values)
            if d:
                return f"[{k}] {d}"
    return None


def _close(x, y, dtype):
    return values_close(x, y, *_tolerance(dtype))


def _brief(arr):
    text = np.array2string(np.asarray(arr).reshape(-1)[:6], precision=5, separator=",")
    return text if arr.size <= 6 else text[:-1] + ",...]"


def compare(examples, paddle_res, opsdk_res):
    """{key: verdict}: 'agree', 'paddle raises' (left out), or a description of the difference."""
    verdicts = {}
    for key, statements in examples:
        p, o = paddle_res[key], opsdk_res.get(key)
        if p["raised"]:
            verdicts[key] = "paddle raises"
            continue
        if o is None:
            verdicts[key] = "opsdk worker died"
            continue
        if o["raised"]:
            i, cls = o["raised"]
            verdicts[key] = f"opsdk raises {cls} at `{statements[i].strip()[:70]}`"
            continue
        values = not RANDOM.search("\n".join(statements))
        diffs = []
        for name, obs in p["vars"].items():
            if obs[0] == "tensor-unreadable":  # Paddle cannot read it back itself
                continue
            if name not in o["vars"]:
                diffs.append(f"{name}: not observed")
                continue
            d = _differ(obs, o["vars"][name], values)
            if d:
                diffs.append(f"{name}: {d}")
        verdicts[key] = "; ".join(diffs) if diffs else "agree"
    return verdicts


def _run_in_child(examples, use_opsdk):
    """{key: result} from worker processes; an example that kills its worker is recorded as
    raising 'Crash', and a new worker goes on with the next one."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="opsdk-doc-examples-") as tmp:
        src, dst = os.path.join(tmp, "in.pkl"), os.path.join(tmp, "out.pkl")
        # the examples save files (paddle.save) where they run: in the temporary directory
        tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join(
            [tests] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        todo = list(examples)
        while todo:
            with open(src, "wb") as f:
                pickle.dump(todo, f)
            subprocess.run([sys.executable, "-m", "paddle_compat.doc_examples", "--worker", src,
                            dst] + (["--opsdk"] if use_opsdk else []),
                           cwd=tmp, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            done = _records(dst)
            results.update(done)
            todo = [e for e in todo if e[0] not in results]
            if todo:  # the worker died in the first of these
                results[todo[0][0]] = {"raised": (0, "Crash"), "vars": {}}
                todo = todo[1:]
    return results


def _records(path):
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, "rb") as f:
        while True:
            try:
                key, res = pickle.load(f)
            except (EOFError, pickle.UnpicklingError):
                return out
            out[key] = res


def run(pattern=None):
    """(examples, verdicts) for every supported name with a docstring example."""
    examples = collect(pattern)
    paddle_res = _run_in_child(examples, False)
    opsdk_res = _run_in_child(examples, True)
    examples = [(k, s) for k, s in examples if k in paddle_res]
    return examples, compare(examples, paddle_res, opsdk_res)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", dest="pattern", help="only names containing this")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--opsdk", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        with open(args.worker[0], "rb") as f:
            examples = pickle.load(f)
        with open(args.worker[1], "wb") as f:
            run_worker(examples, args.opsdk, f)
        return 0
    examples, verdicts = run(args.pattern)
    counted = {k: v for k, v in verdicts.items() if v != "paddle raises"}
    agree = sum(v == "agree" for v in counted.values())
    for key, verdict in sorted(counted.items()):
        if verdict != "agree":
            print(f"{key}: {verdict}")
    print(f"{len(examples)} examples; {len(verdicts) - len(counted)} raise under Paddle (left "
          f"out); {agree} of {len(counted)} agree ({100 * agree / max(1, len(counted)):.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

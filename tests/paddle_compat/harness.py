"""Run one program under a framework, turn what it observed into plain data, compare two runs.

A program is ``fn(paddle)`` returning a dict of observations; ``paddle`` is real PaddlePaddle
or opsdk, so the source is the same for both. Observations may be Tensors, arrays, Python
scalars, None, strings, lists/tuples/dicts of them, or ``attempt(...)`` results; a program
that raises is itself an observation (the exception's built-in family).
"""
import math
import os
import pickle
import subprocess
import sys
import warnings

import numpy as np


class Raised:
    """What an attempt (or a whole program) raised: the built-in classes of the exception."""

    def __init__(self, exc):
        self.type_name = type(exc).__name__
        self.builtins = [c for c in type(exc).__mro__
                         if c.__module__ == "builtins" and c not in (BaseException, Exception,
                                                                     object)]
        self.message = str(exc).splitlines()[0][:200] if str(exc) else ""

    @property
    def family(self):
        """The most specific built-in class (ValueError, RuntimeError, ...), or Exception."""
        return self.builtins[0] if self.builtins else Exception

    def __repr__(self):
        return f"Raised({self.type_name}: {self.message})"


def attempt(fn, *args, **kwargs):
    """fn(*args, **kwargs), or Raised(exception) if it raises."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - recording what raised is the point
        return Raised(e)


def _dtype_name(dtype):
    return str(dtype).split(".")[-1]


def _is_tensor(x):
    return type(x).__name__ in ("Tensor", "Parameter", "EagerParamBase", "SparseGradTensor") \
        or (hasattr(x, "stop_gradient") and hasattr(x, "numpy") and hasattr(x, "shape"))


def normalize(x):
    """Plain data: Tensors become dicts of value, dtype, shape and flags."""
    if isinstance(x, Raised):
        return x
    if _is_tensor(x):
        value = np.array(x.numpy(), copy=True)
        return {"__tensor__": True, "value": value, "dtype": _dtype_name(x.dtype),
                "shape": [int(s) for s in x.shape], "stop_gradient": bool(x.stop_gradient),
                "is_leaf": bool(x.is_leaf)}
    if isinstance(x, np.ndarray):
        return np.array(x, copy=True)
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, dict):
        return {k: normalize(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [normalize(v) for v in x]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return f"<{type(x).__name__}>"


def run(program, module):
    """The normalized observations of program(module), or Raised for the whole program."""
    try:
        return normalize(program(module))
    except Exception as e:  # noqa: BLE001
        return Raised(e)


def values_close(a, b, rtol, atol):
    """Equal arrays: exact for bools and integers, within rtol/atol (NaN equal to NaN) else."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind not in "biufc" or b.dtype.kind not in "biufc":
        return a.dtype.kind == b.dtype.kind and bool(np.array_equal(a, b))
    if a.dtype == bool or b.dtype == bool or a.dtype.kind in "iu" and b.dtype.kind in "iu":
        return bool(np.array_equal(a, b))
    return bool(np.allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol,
                            equal_nan=True))


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def differences(theirs, ours, rtol=1e-5, atol=1e-6, path="result"):
    """Where two normalized observations disagree (empty list: they agree)."""
    if isinstance(theirs, Raised) or isinstance(ours, Raised):
        if not (isinstance(theirs, Raised) and isinstance(ours, Raised)):
            return [f"{path}: paddle {theirs!r}, opsdk {ours!r}"]
        if theirs.family not in ours.builtins and theirs.family is not Exception:
            return [f"{path}: paddle raised {theirs.family.__name__} ({theirs!r}), opsdk "
                    f"{ours!r}, which is not a {theirs.family.__name__}"]
        return []
    if isinstance(theirs, dict) and isinstance(ours, dict):
        if theirs.get("__tensor__") and ours.get("__tensor__"):
            out = []
            for key in ("dtype", "shape", "stop_gradient", "is_leaf"):
                if theirs[key] != ours[key]:
                    out.append(f"{path}.{key}: paddle {theirs[key]}, opsdk {ours[key]}")
            if theirs["shape"] == ours["shape"] and not values_close(theirs["value"], ours["value"],
                                                               rtol, atol):
                out.append(f"{path}.value: paddle {theirs['value'].tolist()}, opsdk "
                           f"{ours['value'].tolist()}")
            return out
        if set(theirs) != set(ours):
            return [f"{path}: keys paddle {sorted(theirs)}, opsdk {sorted(ours)}"]
        out = []
        for k in theirs:
            out += differences(theirs[k], ours[k], rtol, atol, f"{path}.{k}")
        return out
    if isinstance(theirs, list) and isinstance(ours, list):
        if len(theirs) != len(ours):
            return [f"{path}: length paddle {len(theirs)}, opsdk {len(ours)}"]
        out = []
        for i, (a, b) in enumerate(zip(theirs, ours)):
            out += differences(a, b, rtol, atol, f"{path}[{i}]")
        return out
    if isinstance(theirs, np.ndarray) or isinstance(ours, np.ndarray):
        if isinstance(theirs, dict) or isinstance(ours, dict):
            return [f"{path}: paddle {type(theirs).__name__}, opsdk {type(ours).__name__}"]
        return [] if values_close(theirs, ours, rtol, atol) else [
            f"{path}: paddle {np.asarray(theirs).tolist()}, opsdk {np.asarray(ours).tolist()}"]
    if _number(theirs) and _number(ours):
        ok = math.isclose(theirs, ours, rel_tol=rtol, abs_tol=atol) or (
            math.isnan(theirs) and math.isnan(ours))
        return [] if ok else [f"{path}: paddle {theirs}, opsdk {ours}"]
    if type(theirs) is not type(ours) or theirs != ours:
        return [f"{path}: paddle {theirs!r}, opsdk {ours!r}"]
    return []


def judge(program, theirs, ours):
    """(verdict, lines): 'agree', 'differ', 'documented' (differs exactly where documented),
    'stale' (documented as differing, but agrees) or 'stray' (differs beyond the documented)."""
    diffs = differences(theirs, ours, program.rtol, program.atol)
    if program.differs is None:
        return ("differ", diffs) if diffs else ("agree", [])
    expected, why = program.differs
    prefixes = ["result" if p == "" else f"result.{p}" for p in expected]
    stray = [d for d in diffs if not any(d.startswith(p) for p in prefixes)]
    if stray:
        return "stray", stray
    return ("documented", [why]) if diffs else ("stale", [why])


def observe(program, module):
    """Run program under module with warnings silenced and the seed fixed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module.seed(2024)
        return run(program, module)


_CHILD = """
import pickle, sys
sys.path.insert(0, sys.argv[1])
import paddle
from paddle_compat.harness import observe
from paddle_compat.programs import load_all
sys.stdout.buffer.write(pickle.dumps(observe(load_all()[sys.argv[2]], paddle)))
"""


def observe_in_child(program, timeout=120):
    """observe(program, paddle) in a fresh interpreter. A child killed by a signal (the way a
    crashing native kernel ends) is observed as a raised OSError, as if the kernel had raised;
    so is a child that hangs past ``timeout`` (a corrupted heap may deadlock instead of
    aborting: Paddle's nll_loss with a real class as ignore_index does either)."""
    tests_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, tests_dir, program.name],
                              capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:  # run() has killed the child
        return Raised(OSError(f"Paddle's process hung (killed after {timeout} s)"))
    if done.returncode == 0:
        return pickle.loads(done.stdout)  # noqa: S301 - our own child's output
    if done.returncode < 0:
        return Raised(OSError(f"Paddle's process died of signal {-done.returncode}"))
    raise RuntimeError(f"the Paddle side of {program.name} failed in its child process:\n"
                       f"{done.stderr.decode(errors='replace')[-2000:]}")

"""Deriving a formula in a child process with a time and memory budget: no formula can hang
`opsdk new-op` or take the machine's memory.

``bounds`` keeps what reaches SymPy small, but simplification and common subexpressions have no
bound SymPy promises; the child is killed when its time is up, and the user is told so.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

from ...errors import FormulaError

# SymPy's expressions of a bounded formula fit in far less; a runaway one stops here, not at swap
MEMORY_BYTES = 4 << 30
# the child runs the opsdk the parent runs (loaded from its file), and nothing from the current
# directory (which `python -c` would put first on sys.path)
_BOOT = ("import sys, importlib.util as u\n"
         "sys.path[:] = [p for p in sys.path if p not in ('', '.')]\n"
         "spec = u.spec_from_file_location('opsdk', sys.argv[1])\n"
         "sys.modules['opsdk'] = module = u.module_from_spec(spec)\n"
         "spec.loader.exec_module(module)\n"
         "from opsdk.scaffold.formula.worker import main\n"
         "main()\n")


def sympy_available():
    """Whether SymPy imports here, without importing it (the parent does not need it)."""
    import importlib.util

    if "sympy" in sys.modules:
        return sys.modules["sympy"] is not None
    try:
        return importlib.util.find_spec("sympy") is not None
    except (ImportError, ValueError):
        return False


def bounded_formula_context(op, text, inputs=("x",), attrs=None, backends=("python",), domain=None,
                            timeout=None):
    """``formula_context(...)``, computed in a child process given ``timeout`` seconds.

    Args:
        timeout: seconds; default ``$OPSDK_FORMULA_TIMEOUT`` (120).

    Raises:
        FormulaError: the formula cannot be used, or deriving it ran out of time or memory.
    """
    from ...env import setting
    from .parse import read_formula, require_sympy

    read_formula(text, inputs, attrs)  # a refusal needs no SymPy and no child, and answers at once
    if not sympy_available():
        require_sympy()  # raises the error that names the extra
    timeout = setting("OPSDK_FORMULA_TIMEOUT") if timeout is None else timeout
    request = {"op": op, "text": text, "inputs": list(inputs), "attrs": dict(attrs or {}),
               "backends": list(backends), "domain": None if domain is None else list(domain)}
    package = str(Path(__file__).resolve().parents[2] / "__init__.py")
    # one thread: the child computes symbols, and BLAS threads would only reserve memory
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    try:
        done = subprocess.run([sys.executable, "-c", _BOOT, package], input=json.dumps(request), env=env,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise FormulaError(f"formula {text!r}: deriving it took longer than {timeout:g} s and was "
                           f"stopped; expected: a formula SymPy derives in that time (fewer terms, "
                           f"fewer nested functions), or a larger OPSDK_FORMULA_TIMEOUT; got: still "
                           f"running after {timeout:g} s") from None
    lines = done.stdout.strip().splitlines()
    answer = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    if "context" in answer:
        return answer["context"]
    if "error" in answer:
        raise FormulaError(answer["error"])
    if "bug" in answer:
        raise RuntimeError(f"deriving formula {text!r} failed inside opsdk:\n{answer['bug']}")
    died = (f"it was killed by signal {-done.returncode}" if done.returncode < 0
            else f"it exited with status {done.returncode}")
    raise FormulaError(f"formula {text!r}: the process deriving it ended without an answer ({died}, "
                       f"out of memory?); expected: a formula SymPy derives within "
                       f"{MEMORY_BYTES >> 30} GiB; got: {done.stderr.strip()[-300:] or 'no output'}")


def _limit_memory():
    try:
        import resource
    except ImportError:  # Windows: the time budget still holds
        return
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = MEMORY_BYTES if hard == resource.RLIM_INFINITY else min(MEMORY_BYTES, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):  # a platform that does not enforce it (macOS): the time budget holds
        pass


def main():
    """The child: read the request from stdin, print one JSON line (context, error or bug)."""
    request = json.loads(sys.stdin.read())
    _limit_memory()
    try:
        from .generate import formula_context

        context = formula_context(request["op"], request["text"], request["inputs"], request["attrs"],
                                  tuple(request["backends"]), request["domain"])
        answer = {"context": context}
    except FormulaError as error:
        answer = {"error": str(error)}
    except MemoryError:
        answer = {"error": f"formula {request['text']!r}: deriving it needs more than {MEMORY_BYTES >> 30} "
                           f"GiB; expected: a smaller formula (fewer terms, fewer nested functions); got: "
                           f"out of memory"}
    except Exception:  # a bug in opsdk: its traceback goes to the parent, which reports it as one
        import traceback

        answer = {"bug": traceback.format_exc()}
    sys.stdout.write("\n" + json.dumps(answer) + "\n")

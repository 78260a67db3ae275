"""Several ops checked at once: forked processes, each given a whole op at a time.

``opsdk check`` spends its time in the Python around small kernels, one case after another, so
a second core halves a run only if a second process does half the cases. An op's cases stay
together in one process: samples, remembered python runs and the op's captured state are
shared between them, and the verdicts are the ones a single process gives (a case depends only
on its op, the seed and the mode).

Processes are forked once the packs are loaded and before any case runs, so each starts from
the state a single-process run would start from. The parent hands out ops as processes become
free (the slow op does not wait behind a queue) and passes results on in the planned order, so
progress lines and reports read as a single-process run's do. A process that dies (a crash in
an op's native code, ``os._exit``) costs the case it was running, reported as an error naming
how it ended and where, and the rest of that op's cases (blocked); the other ops go on in a new
process.

Not forked (one process instead): where ``fork`` is unsafe or missing (macOS, Windows), and
when something that runs threads or a GPU context of its own is already in the process (another
Python thread, a real CuPy, PyTorch, JAX, Paddle, TensorFlow, or an OpenMP runtime a compiled
kernel loaded): a child
forked from such a process can hang or fail. The ``opsdk`` command forks before any kernel
runs; a program that ran checks already gets one process (see ``fork_refusal``).
"""
import os
import sys
import tempfile

from ...env import setting
from .result import BLOCKED, ERROR, CheckResult

ENV_JOBS = "OPSDK_CHECK_JOBS"  # see opsdk/env.py
# imported before the fork, these leave threads or device contexts a child cannot use
_FORK_UNSAFE = ("torch", "jax", "paddle", "tensorflow")
# each process may use the per-sample memory budget (by default a quarter of the machine's):
# four of them at most never ask for more than the machine has
_MAX_AUTO = 4


def auto_jobs():
    """The CPUs this process may run on (its affinity), at most 4."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, _MAX_AUTO))


def fork_refusal():
    """Why this process must not fork its checks (a sentence), or None when it may."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return "fork is only used on Linux"
    cupy = sys.modules.get("cupy")
    if cupy is not None and not getattr(cupy, "__opsdk_simulator__", False):
        return "CuPy is imported (a CUDA context does not survive fork)"
    import threading

    if threading.active_count() > 1:  # a lock one of them holds (imports, a stream) stays held
        return "other Python threads run in this process (their locks do not survive fork)"
    loaded = [name for name in _FORK_UNSAFE if name in sys.modules]
    if loaded:
        return f"{', '.join(loaded)} is imported (its threads do not survive fork)"
    from .threads import loaded_runtimes

    if loaded_runtimes():  # a compiled kernel ran here: a child's next parallel region would hang
        return "an OpenMP runtime is loaded (its thread pool does not survive fork)"
    return None


def _groups(cases):
    """The cases' indices, one list per op, in the planned order."""
    groups, where = [], {}
    for index, case in enumerate(cases):
        key = id(case.op)
        if key not in where:
            where[key] = len(groups)
            groups.append([])
        groups[where[key]].append(index)
    return groups


def jobs_for(cases, jobs):
    """How many processes a run of ``cases`` uses: ``jobs`` ("auto": $OPSDK_CHECK_JOBS, else
    auto_jobs()) but no more than it has ops, and 1 where forking is refused (fork_refusal)."""
    if jobs == "auto":
        jobs = setting(ENV_JOBS)
    wanted = auto_jobs() if jobs is None else jobs
    wanted = min(wanted, len(_groups(cases)))
    if wanted > 1 and fork_refusal() is not None:
        return 1
    return max(wanted, 1)


class _Child:
    """One forked process: the pipe it reads ops from, the pipe it answers on, its crash file."""

    def __init__(self, pid, tasks, answers, crash_path):
        self.pid, self.tasks, self.answers, self.crash_path = pid, tasks, answers, crash_path
        self.group = None      # the op's case indices it is running
        self.unanswered = []   # those of them it has sent no result for yet
        self.running = None    # the case index it started and has not answered yet
        self.ending = None     # how it said it is ending (sys.exit in an op), else None


def _child_main(cases, tasks, answers, crash_fd, run_case, mode, seed):
    """A forked process's life: run each op it is given, answer every case; never returns."""
    import faulthandler
    import signal

    from ...packs.loading import channel

    code = 0
    try:
        # the supervisor's pipe belongs to the parent: a crash here dumps to the crash file,
        # which the parent puts in the report
        channel.detach()
        faulthandler.disable()
        faulthandler.enable(file=crash_fd, all_threads=False)
        signal.signal(signal.SIGINT, signal.default_int_handler)

        def on_sample(case, index, count):
            answers.send(("sample", case_index[0], index, count))

        case_index = [None]
        while True:
            group = tasks.recv()
            if group is None:
                break
            for index in group:
                case_index[0] = index
                answers.send(("start", index))
                answers.send(("result", index, run_case(cases[index], mode, seed, on_sample)))
            answers.send(("idle",))
    except KeyboardInterrupt:
        code = 130
    except SystemExit as exit:  # an op's code called sys.exit(): it ends this process, as it would
        code = 1                # the command's in one process, and the parent names the case
        try:
            answers.send(("ending", f"called sys.exit({exit.code!r})"))
        except Exception:  # noqa: BLE001 - the parent then sees the process end
            pass
    except (EOFError, BrokenPipeError):
        code = 1  # the parent went away
    except BaseException:  # noqa: BLE001 - said to the parent, which reports it as opsdk's bug
        import traceback

        try:
            answers.send(("bug", traceback.format_exc()))
        except Exception:  # noqa: BLE001 - the parent then sees the process end
            pass
        code = 70
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed stream must not change the exit status
            pass
    os._exit(code)


def _fork(cases, run_case, mode, seed):
    from multiprocessing.connection import Pipe

    task_read, task_write = Pipe(duplex=False)
    answer_read, answer_write = Pipe(duplex=False)
    crash_fd, crash_path = tempfile.mkstemp(prefix="opsdk-check-crash-")
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # else what is buffered is written twice, by each process
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        from ...packs.loading.watch import die_with_parent

        die_with_parent(parent)  # a parent killed from outside leaves no child checking on
        task_write.close()
        answer_read.close()
        _child_main(cases, task_read, answer_write, crash_fd, run_case, mode, seed)
    task_read.close()
    answer_write.close()
    os.close(crash_fd)
    return _Child(pid, task_write, answer_read, crash_path)


def _crash_text(child):
    """What the child's faulthandler wrote (where it crashed), trimmed; '' if nothing."""
    try:
        with open(child.crash_path, encoding="utf-8", errors="replace") as file:
            text = file.read(64 * 1024)
    except OSError:
        return ""
    from ...packs.loading.watch import trimmed_dump

    return trimmed_dump(text.splitlines(), below=os.path.join("opsdk", "check", ""))


def _ended(child):
    """Reap a child that closed its pipe; how it ended, as a phrase."""
    from ...packs.loading.watch import how_status_ended

    try:
        _, status = os.waitpid(child.pid, 0)
    except ChildProcessError:
        return "ended (its status is lost)"
    return how_status_ended(status)


def _death_results(child, cases, how):
    """The results of the op a dead child was running: an error for the case it was in, the
    op's cases it had not answered yet blocked."""
    results = {}
    crashed = child.running
    if crashed is not None:
        case = cases[crashed]
        where = _crash_text(child)
        detail = (f"the process checking {case.op.qualname} ended during this check: {how} (a "
                  "crash or an exit in the op's code?); the op's later checks did not run"
                  + (f"\nwhere it ended:\n{where}" if where else ""))
        results[crashed] = CheckResult(case.op.qualname, case.backend, case.dtype, case.check,
                                       ERROR, detail=detail, message=f"the process ended: {how}")
    during = cases[crashed].case_id if crashed is not None else "between two checks"
    for index in child.unanswered:
        if index != crashed:
            case = cases[index]
            results[index] = CheckResult(case.op.qualname, case.backend, case.dtype, case.check,
                                         BLOCKED, detail=f"not run: the process checking this op "
                                         f"ended in {during}: {how}")
    return results


def run_parallel(cases, jobs, run_case, mode, seed, deliver, on_sample=None):
    """Run ``cases`` in ``jobs`` forked processes; call ``deliver(index, result)`` in case order.

    ``run_case`` is the runner's (passed in so this module needs nothing of it); ``on_sample``
    is told of the samples of the first case not delivered yet (a long case's heartbeat).
    """
    from multiprocessing.connection import wait

    groups = _groups(cases)
    # the ops with the most cases first: a long op started last would run on alone
    pending = sorted(range(len(groups)), key=lambda g: -len(groups[g]))
    done, next_out = {}, 0
    children = []

    def hand_out(child):
        if pending:
            child.group = groups[pending.pop(0)]
            child.unanswered = list(child.group)
            child.tasks.send(child.group)
        else:
            child.group = None
            child.tasks.send(None)

    def release():
        nonlocal next_out
        while next_out in done:
            deliver(next_out, done.pop(next_out))
            next_out += 1

    try:
        for _ in range(min(jobs, len(groups))):
            child = _fork(cases, run_case, mode, seed)
            children.append(child)
            hand_out(child)
        while children:
            for conn in wait([c.answers for c in children]):
                child = next(c for c in children if c.answers is conn)
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    ended = _ended(child)  # reaped whatever it said
                    how = child.ending or ended
                    children.remove(child)
                    if child.group is not None:
                        done.update(_death_results(child, cases, how))
                        if pending:  # the other ops go on in a new process
                            fresh = _fork(cases, run_case, mode, seed)
                            children.append(fresh)
                            hand_out(fresh)
                    _forget(child)
                    release()
                    continue
                kind = message[0]
                if kind == "start":
                    child.running = message[1]
                elif kind == "result":
                    done[message[1]] = message[2]
                    child.unanswered.remove(message[1])
                    child.running = None
                    release()
                elif kind == "sample":
                    if on_sample is not None and message[1] == next_out:
                        on_sample(cases[message[1]], message[2], message[3])
                elif kind == "ending":
                    child.ending = message[1]
                elif kind == "idle":
                    hand_out(child)
                elif kind == "bug":  # run_case lets nothing of an op escape: this is opsdk's
                    raise RuntimeError(f"a check process failed:\n{message[1]}")
    finally:
        for child in children:
            _stop(child)
    release()


def _stop(child):
    import signal

    try:
        os.kill(child.pid, signal.SIGKILL)
        os.waitpid(child.pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    _forget(child)


def _forget(child):
    for conn in (child.tasks, child.answers):
        try:
            conn.close()
        except OSError:
            pass
    try:
        os.unlink(child.crash_path)  # made by _fork with mkstemp: ours
    except OSError:
        pass

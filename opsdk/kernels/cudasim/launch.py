"""One simulated kernel launch: CuPy's checks of the configuration, the run, and the verdict."""
import ctypes
import os
from typing import NamedTuple

from opsdk.env import setting
from opsdk.errors import CudaSimulatorError

from . import abi, faults, loader
from .arguments import marshal
from .cupy_api.cuda import CUDADriverError, current_device_id, get_current_stream

_records = []  # lists collecting LaunchRecords (see cudasim.recording)
DEFAULT_SHARED = 48 * 1024
MAX_SHARED_OPTIN = 163 * 1024


class LaunchRecord(NamedTuple):
    """What a launch was: kernel, configuration, device and stream, and its strided array arguments."""

    kernel: str
    grid: tuple
    block: tuple
    shared_mem: int
    device: int
    stream: int
    views: tuple = ()  # (argument name, shape, strides) of each non-contiguous array argument


def _dims(value, what):
    if not isinstance(value, tuple):
        raise TypeError(f"Argument '{what}' has incorrect type (expected tuple, got {type(value).__name__})")
    dims = (value + (1, 1))[:3]
    return tuple(max(1, int(d)) for d in dims)  # CuPy launches at least one block / thread per axis


def _invalid(label, why):
    return CUDADriverError(f"CUDA_ERROR_INVALID_VALUE: invalid argument (simulated launch of {label}: {why})")


def schedule():
    """(code, seed) of ``OPSDK_CUDA_SIM_SCHEDULE``: ``in-order`` (default), ``reverse`` or ``shuffle[:SEED]``.

    The order a block's threads start and leave barriers in, and the order of the blocks: a
    kernel whose result changes with it depends on an order CUDA does not promise (a race in
    global memory, one block waiting for another).
    """
    try:
        return setting("OPSDK_CUDA_SIM_SCHEDULE")
    except ValueError:
        from opsdk.errors import OpsdkError

        text = os.environ["OPSDK_CUDA_SIM_SCHEDULE"].strip().lower()
        raise OpsdkError(f"OPSDK_CUDA_SIM_SCHEDULE={text!r}: not a schedule of the CUDA simulator\n"
                         f"  expected: in-order, reverse, shuffle or shuffle:SEED (a non-negative integer)\n"
                         f"  got: {text!r}") from None


_strict = [None]  # install(strict=...): overrides OPSDK_CUDA_SIM_STRICT when not None


def strict():
    """Whether strict mode is on: ``install(strict=True)``, else ``OPSDK_CUDA_SIM_STRICT=1``.

    Strict mode reports what CUDA leaves undefined but GPUs mostly survive: a warp collective
    whose mask names lanes that have exited.
    """
    if _strict[0] is not None:
        return _strict[0]
    return setting("OPSDK_CUDA_SIM_STRICT")


_SETTINGS = ("OPSDK_CUDA_SIM_TIMEOUT", "OPSDK_CUDA_SIM_RACECHECK", "OPSDK_CUDA_SIM_STACK_KB",
             "OPSDK_CUDA_SIM_SCHEDULE", "OPSDK_CUDA_SIM_STRICT")
_parsed = {}  # the variables' raw values (and install(strict=)) -> what a launch takes from them


def _settings():
    """(timeout, races, stack bytes, (schedule, seed), strict) of the environment, parsed once per
    set of values (a launch reads them all; parsing them costs more than a small launch)."""
    key = (*map(os.environ.get, _SETTINGS), _strict[0])
    found = _parsed.get(key)
    if found is None:
        found = (setting("OPSDK_CUDA_SIM_TIMEOUT"), setting("OPSDK_CUDA_SIM_RACECHECK"),
                 setting("OPSDK_CUDA_SIM_STACK_KB") * 1024, schedule(), strict())
        if len(_parsed) > 64:
            _parsed.clear()
        _parsed[key] = found
    return found


def launch(handle, grid, block, args, shared_mem=0, stream=None, max_dynamic_shared=None):
    """Run kernel ``handle`` over ``grid`` x ``block``; raise what a GPU would show, in words.

    Raises:
        TypeError: grid or block is not a tuple (CuPy's own TypeError).
        cupy.cuda.driver.CUDADriverError: an invalid configuration (too many threads, too much
            shared memory), as CuPy raises it.
        KernelArgumentError: an argument does not fit its parameter, or is on another device.
        CudaSimulatorError: the kernel faulted, raced, read memory no thread wrote, or a barrier /
            shuffle was not reached by every thread that must reach it.
    """
    label = f"kernel '{handle.name}' ({handle.where})"
    grid = _dims(grid, "grid")
    block = _dims(block, "block")
    threads = block[0] * block[1] * block[2]
    if threads > abi.MAX_THREADS or block[0] > 1024 or block[1] > 1024 or block[2] > 64:
        raise _invalid(label, f"block {block} has {threads} threads; at most 1024, and (1024, 1024, 64) per axis")
    if grid[0] > 2**31 - 1 or grid[1] > 65535 or grid[2] > 65535:
        raise _invalid(label, f"grid {grid} exceeds (2**31 - 1, 65535, 65535)")
    shared_mem = int(shared_mem)
    if shared_mem < 0:
        raise OverflowError("can't convert negative value to size_t")
    limit = DEFAULT_SHARED if max_dynamic_shared is None else min(int(max_dynamic_shared), MAX_SHARED_OPTIN)
    if shared_mem > limit:
        raise _invalid(label, f"shared_mem={shared_mem} bytes exceeds the {limit} bytes a block may use "
                              "(raise kernel.max_dynamic_shared_size_bytes, up to 163 KiB on sm_80)")
    marshalled = marshal(handle, args, label)
    stream = stream or get_current_stream()
    views = tuple((handle.names[i] or f"#{i}", a.shape, a.strides) for i, a in marshalled.arrays
                  if not a._a.flags.c_contiguous)
    record = LaunchRecord(handle.name, grid, block, shared_mem, current_device_id(), stream.ptr, views)
    for sink in _records:
        sink.append(record)
    timeout, races, stack, (sched, seed), is_strict = _settings()
    spec = abi.SimLaunch()
    spec.entry = handle.entry
    spec.args = marshalled.pointers
    spec.grid[:] = grid
    spec.block[:] = block
    spec.dynamic_shared = shared_mem
    spec.timeout_s = timeout
    spec.check_races = int(races)
    spec.fast_math = int(handle.module.build.fast_math)
    spec.stack_bytes = stack
    spec.instrumented = int(handle.module.build.instrumented)
    spec.schedule, spec.seed = sched, seed
    spec.strict = int(is_strict)
    result = abi.SimResult()
    lib = loader.runtime()
    with loader.LOCK:
        lib.opsdk_sim_run(ctypes.byref(spec), ctypes.byref(result))
    if result.main.status != abi.OK:
        raise CudaSimulatorError(faults.describe(result, handle, marshalled.arrays))
    _check_after(handle, marshalled.arrays, result, label)


def _check_after(handle, arrays, result, label):
    """Writes outside allocations (canaries) and poison in the outputs, after a clean run."""
    for position, array in arrays:
        damage = array._buffer().canary_damage()
        if damage is not None:
            name = handle.names[position] or f"#{position}"
            where = f"{damage} bytes before its start" if damage < 0 else \
                f"byte {damage} from its start ({damage - array._buffer().nbytes} past its end)"
            raise CudaSimulatorError(
                f"CUDA simulator: {label}: out-of-bounds write to argument '{name}' "
                f"({array.dtype}[{'x'.join(map(str, array.shape))}]): {where}; a GPU corrupts "
                f"whatever lies there")
    for position, array in arrays:
        param = handle.params[position]
        if param.pointee_const or not faults.holds_nan(array._a):
            continue  # every poison is a NaN: an output without one holds none (one pass, not one a kind)
        for kind, (signatures, words) in faults.POISONS.items():
            if kind == "shuffle" and not result.undefined_reads:
                continue
            count, first = faults.poisoned(array._a, signatures)
            if count:
                name = handle.names[position] or f"#{position}"
                note = f"\n  first such read: {result.note.decode(errors='replace')}" if kind == "shuffle" else ""
                raise CudaSimulatorError(
                    f"CUDA simulator: {label}: output '{name}' holds {count} {words} "
                    f"(first at flat index {first}){note}")

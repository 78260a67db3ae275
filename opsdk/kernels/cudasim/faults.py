"""What went wrong in a simulated launch, in words: the kernel, the thread, the cause, the argument."""
import numpy

from . import abi, sites
from .memory import CANARY, SHARED_POISON, SHUFFLE_POISON, owner

_CAUSES = {
    abi.ERR_FAULT: "out-of-bounds access",
    abi.ERR_OOB_GLOBAL: "out-of-bounds access",
    abi.ERR_OOB_SHARED: "out-of-bounds shared memory access",
    abi.ERR_UNINIT_SHARED: "read of uninitialised shared memory",
    abi.ERR_RACE_RAW: "shared memory race",
    abi.ERR_RACE_WAR: "shared memory race",
    abi.ERR_RACE_GLOBAL: "global memory race",
    abi.ERR_UNINIT_GLOBAL: "read of uninitialised global memory",
    abi.ERR_BARRIER_EXITED: "divergent barrier: barrier not reached by every thread",
    abi.ERR_BARRIER_SITES: "divergent barrier",
    abi.ERR_WARP_CALLER: "warp collective called outside its mask",
    abi.ERR_WARP_DEADLOCK: "warp collective not reached by every thread of its mask",
    abi.ERR_WARP_WIDTH: "invalid shuffle width",
    abi.ERR_TIMEOUT: "kernel did not finish",
    abi.ERR_TRAP: "device-side trap",
    abi.ERR_FPE: "integer division by zero",
    abi.ERR_STACK: "stack overflow",
    abi.ERR_ILLEGAL: "illegal instruction",
    abi.ERR_INTERNAL: "simulator failure",
    abi.ERR_MISALIGNED: "misaligned address",
    abi.ERR_FLOAT_CAST: "float-to-integer conversion out of range",
    abi.ERR_WARP_EXITED: "warp collective whose mask names exited lanes",
}


def cause(status):
    """A short name of what a launch status means."""
    return _CAUSES.get(status, f"error {status}")


def _position(report):
    b, t = tuple(report.block), tuple(report.thread)
    return f"block ({b[0]},{b[1]},{b[2]}), thread ({t[0]},{t[1]},{t[2]})"


def _where_in(array, name, position, address):
    """``address`` relative to one array argument, in words (bytes and the element)."""
    buf = array._buffer()
    start = array._a.__array_interface__["data"][0]
    shape = "x".join(map(str, array.shape)) or "scalar"
    offset, item = address - start, array.itemsize
    head = f"argument '{name or f'#{position}'}' ({array.dtype}[{shape}], {buf.nbytes} bytes)"
    if offset < 0:
        return f"{head}: {-offset} bytes before its start (element {offset // item})"
    past = address - (buf.ptr + buf.nbytes)
    if past >= 0:
        return f"{head}: {past} bytes past its end (element {offset // item}; it has {array.size})"
    return f"{head}: byte {offset} (element {offset // item})"


def _argument_at(address, arrays, names):
    """Which launch argument ``address`` belongs to or is nearest, in words (with the element)."""
    found = owner(address)
    if found is not None:
        for position, array in arrays:
            if array._buffer() is found[0]:
                return _where_in(array, names[position], position, address)
    nearest = None
    for position, array in arrays:
        buf = array._buffer()
        distance = max(buf.ptr - address, address - (buf.ptr + buf.nbytes), 0)
        if nearest is None or distance < nearest[0]:
            nearest = (distance, position, array)
    landed = ("in the guard region of another device allocation" if found is not None
              else "where no device memory is mapped")
    if nearest is not None and nearest[0] < 1 << 30:
        _, position, array = nearest
        return (f"address {address:#x}, outside every argument ({landed}); the nearest is "
                f"{_where_in(array, names[position], position, address)}")
    if address < 65536:
        return f"a null (or nearly null) pointer, address {address:#x}"
    return f"address {address:#x}, {landed} (a wild pointer, or freed memory?)"


def _frames(report, build):
    """The user's frames of the report's thread (innermost first): the faulting line first."""
    pcs = [report.pcs[i] for i in range(report.npcs)]
    frames = sites.chain(build.path, pcs, bool(report.pc_exact), build.user_files)
    if not frames and report.file and report.line:
        frames = [sites.Frame(report.file.decode(errors="replace"), report.line, "")]
    return frames


def _other_site(report, build):
    if not report.other_pc:
        return ""
    frames = sites.chain(build.path, [report.other_pc], False, build.user_files)
    return f" at {frames[0]}" if frames else ""


def _text(report, handle, arrays):
    """(cause with site, detail lines) of one report."""
    status = report.status
    build = handle.module.build
    frames = _frames(report, build)
    site, chain = sites.words(frames)
    message = report.message.decode(errors="replace").replace("\x01", _other_site(report, build))
    lines = []
    if status == abi.ERR_FAULT and message == "general-protection fault":
        lines.append("a general-protection fault, which reports no address: most often a misaligned vector "
                     "access (a float4 / double2 load or store at an address that is not a multiple of 16: "
                     "a row of a float array is 16-byte aligned only when the row length is a multiple of "
                     "4), else a wild pointer; a GPU reports a misaligned or illegal address here")
    elif status == abi.ERR_MISALIGNED:
        access = "write" if report.is_write == 1 else "read"
        alignment = report.size
        where = message if "shared-memory" in message else \
            f"{access} of {report.size} bytes of {_argument_at(report.address, arrays, handle.names)}, " \
            f"{report.address % alignment} bytes past a {alignment}-byte boundary"
        lines += [where, f"a GPU stops with 'misaligned address': a {alignment}-byte access (a float4, a "
                         f"double2, a double, ...) needs an address that is a multiple of {alignment}; vector "
                         f"loads of rows or views start aligned only when their offset is a multiple of the "
                         f"vector's width"]
    elif status in (abi.ERR_FAULT, abi.ERR_OOB_GLOBAL):
        access = {1: "write", 0: "read"}.get(report.is_write, "access")
        size = f" of {report.size} bytes" if report.size else ""
        detail = f"{access}{size} of {_argument_at(report.address, arrays, handle.names)}"
        if status == abi.ERR_FAULT:
            detail += " (it hit a guard page around the allocation)"
        elif "freed" in message:
            detail += " (device memory that was freed)"
        lines += [detail, "a GPU reports an illegal memory access here, or silently reads garbage"]
    elif status in (abi.ERR_RACE_GLOBAL, abi.ERR_UNINIT_GLOBAL) and "\x02" in message:
        access, rest = message.split("\x02", 1)
        lines.append(f"{access} of {report.size} bytes of {_argument_at(report.address, arrays, handle.names)}"
                     f"{rest}")
    elif status == abi.ERR_STACK:
        lines.append(f"{message}; raise OPSDK_CUDA_SIM_STACK_KB if the kernel needs more")
    else:
        lines.append(message)
    if chain:
        lines.append(chain)
    return f"{cause(status)}{site}", lines


def describe(result, handle, arrays):
    """The message of a failed launch: the cause and its source line, what happened, the call chain."""
    report = result.main
    head, lines = _text(report, handle, arrays)
    text = f"CUDA simulator: kernel '{handle.name}' ({handle.where}), {_position(report)}: {head}"
    if result.first.status:
        first_head, first_lines = _text(result.first, handle, arrays)
        lines.append(f"before it, {_position(result.first)}: {first_head}: {first_lines[0]} (threads that "
                     f"skip the barrier run on into the code after it: the race is what the divergent "
                     f"barrier causes)")
    if not sites.available():
        lines.append("(no source lines: install binutils' addr2line to see where)")
    return text + "".join(f"\n  {line}" for line in lines)


# -- poison found in a launch's outputs --------------------------------------------------------

def signatures(word):
    """The bit patterns poison ``word`` takes in float32 and float64 arrays (also after a cast)."""
    f32 = numpy.array([word], numpy.uint32).view(numpy.float32)
    f64 = numpy.array([(word << 32) | word], numpy.uint64).view(numpy.float64)
    with numpy.errstate(invalid="ignore"):
        as64 = f32.astype(numpy.float64).view(numpy.uint64)[0] >> 32
        as32 = f64.astype(numpy.float32).view(numpy.uint32)[0]
    return {numpy.dtype(numpy.float32): {word & 0x7FFFFFFF, int(as32) & 0x7FFFFFFF},
            numpy.dtype(numpy.float64): {word & 0x7FFFFFFF, int(as64) & 0x7FFFFFFF}}


POISONS = {
    "shuffle": (signatures(SHUFFLE_POISON), "values computed from a warp shuffle that read a lane "
                                              "not taking part (undefined on a GPU)"),
    "shared": (signatures(SHARED_POISON), "values computed from shared memory no thread had written"),
    "canary": (signatures(CANARY), "values read from outside a device allocation (out of bounds)"),
}


def holds_nan(array):
    """Whether a float array holds a NaN (every poison pattern is one)."""
    return array.dtype.kind == "f" and array.size > 0 and bool(numpy.isnan(array).any())


def poisoned(array, signatures):
    """How many elements of a float32/float64 array carry one of the poison bit patterns."""
    a = array.reshape(-1) if array.flags.c_contiguous else array.ravel()
    patterns = signatures.get(a.dtype)
    if patterns is None or not a.size:
        return 0, -1
    nan = numpy.isnan(a)
    if not nan.any():
        return 0, -1
    bits = a.view(numpy.uint32 if a.dtype.itemsize == 4 else numpy.uint64)
    if a.dtype.itemsize == 8:
        bits = bits >> numpy.uint64(32)
    hits = nan & numpy.isin(bits & 0x7FFFFFFF, numpy.array(sorted(patterns), bits.dtype))
    count = int(hits.sum())
    return count, int(numpy.argmax(hits)) if count else -1

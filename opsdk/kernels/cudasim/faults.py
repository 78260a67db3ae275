"""What went wrong in a simulated launch, in words: the kernel, the thread, the cause, the argument."""
import numpy

from . import abi
from .memory import CANARY, SHARED_POISON, SHUFFLE_POISON, owner

_CAUSES = {
    abi.ERR_FAULT: "out-of-bounds access",
    abi.ERR_OOB_GLOBAL: "out-of-bounds access",
    abi.ERR_OOB_SHARED: "out-of-bounds shared memory access",
    abi.ERR_UNINIT_SHARED: "read of uninitialised shared memory",
    abi.ERR_RACE_RAW: "shared memory race",
    abi.ERR_RACE_WAR: "shared memory race",
    abi.ERR_BARRIER_EXITED: "barrier not reached by every thread",
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
}


def cause(status):
    """A short name of what a launch status means."""
    return _CAUSES.get(status, f"error {status}")


def _position(result):
    b, t = tuple(result.block), tuple(result.thread)
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


def describe(result, handle, arrays):
    """The message of a failed launch."""
    status = result.status
    head = f"CUDA simulator: kernel '{handle.name}' ({handle.where}), {_position(result)}: {cause(status)}"
    site = ""
    if result.file:
        site = f" at {result.file.decode(errors='replace')}:{result.line}"
    message = result.message.decode(errors="replace")
    if status == abi.ERR_FAULT and message == "general-protection fault":
        return (f"{head}: a general-protection fault, which reports no address\n  most often a misaligned "
                f"vector access (a float4 / double2 load or store at an address that is not a multiple of 16: "
                f"a row of a float array is 16-byte aligned only when the row length is a multiple of 4), "
                f"else a wild pointer; a GPU reports a misaligned or illegal address here")
    if status == abi.ERR_MISALIGNED:
        access = "write" if result.is_write == 1 else "read"
        alignment = result.size
        shared = "shared-memory" in message
        where = message if shared else \
            f"{access} of {result.size} bytes of {_argument_at(result.address, arrays, handle.names)}, " \
            f"{result.address % alignment} bytes past a {alignment}-byte boundary"
        return (f"{head}\n  {where}\n  a GPU stops with 'misaligned address': a {alignment}-byte access (a "
                f"float4, a double2, a double, ...) needs an address that is a multiple of {alignment}; "
                f"vector loads of rows or views start aligned only when their offset is a multiple of the "
                f"vector's width")
    if status in (abi.ERR_FAULT, abi.ERR_OOB_GLOBAL):
        access = {1: "write", 0: "read"}.get(result.is_write, "access")
        size = f" of {result.size} bytes" if result.size else ""
        detail = f"{access}{size} of {_argument_at(result.address, arrays, handle.names)}"
        if status == abi.ERR_FAULT:
            detail += " (it hit a guard page around the allocation)"
        return f"{head}\n  {detail}\n  a GPU reports an illegal memory access here, or silently reads garbage"
    if status == abi.ERR_STACK:
        return f"{head}\n  {message}; raise OPSDK_CUDA_SIM_STACK_KB if the kernel needs more"
    return f"{head}{site}\n  {message}"


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

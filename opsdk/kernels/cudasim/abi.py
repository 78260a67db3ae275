"""ctypes mirrors of runtime/sim_abi.h: the structures the simulator's runtime and modules share."""
import ctypes

ABI = 6  # OPSDK_SIM_ABI
WARP = 32
MAX_THREADS = 1024
MAX_DYNAMIC_SHARED = 256 * 1024

KIND_POINTER, KIND_FLOAT, KIND_SINT, KIND_UINT, KIND_BOOL, KIND_VOID, KIND_VECTOR, KIND_OTHER, KIND_BYTES = range(9)

(OK, ERR_FAULT, ERR_OOB_GLOBAL, ERR_OOB_SHARED, ERR_UNINIT_SHARED, ERR_RACE_RAW, ERR_RACE_WAR,
 ERR_BARRIER_EXITED, ERR_BARRIER_SITES, ERR_WARP_CALLER, ERR_WARP_DEADLOCK, ERR_WARP_WIDTH, ERR_TIMEOUT,
 ERR_TRAP, ERR_FPE, ERR_STACK, ERR_ILLEGAL, ERR_INTERNAL, ERR_MISALIGNED, ERR_FLOAT_CAST, ERR_RACE_GLOBAL,
 ERR_UNINIT_GLOBAL, ERR_WARP_EXITED) = range(23)
FRAMES = 16


class SimType(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("size", ctypes.c_int), ("elem_kind", ctypes.c_int),
                ("elem_size", ctypes.c_int)]


class SimParam(ctypes.Structure):
    _fields_ = [("type", SimType), ("pointee", SimType), ("pointee_const", ctypes.c_int),
                ("spelling", ctypes.c_char_p)]


ENTRY = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p))


class SimKernel(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("entry", ctypes.c_void_p), ("nparams", ctypes.c_int),
                ("params", ctypes.POINTER(SimParam))]


class SimLaunch(ctypes.Structure):
    _fields_ = [("entry", ctypes.c_void_p), ("args", ctypes.POINTER(ctypes.c_void_p)),
                ("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                ("dynamic_shared", ctypes.c_size_t), ("timeout_s", ctypes.c_double),
                ("check_races", ctypes.c_int), ("fast_math", ctypes.c_int), ("stack_bytes", ctypes.c_uint64),
                ("instrumented", ctypes.c_int), ("schedule", ctypes.c_int), ("seed", ctypes.c_uint64),
                ("strict", ctypes.c_int)]


class SimReport(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("block", ctypes.c_uint * 3), ("thread", ctypes.c_uint * 3),
                ("address", ctypes.c_uint64), ("size", ctypes.c_int), ("is_write", ctypes.c_int),
                ("line", ctypes.c_int), ("file", ctypes.c_char * 512), ("message", ctypes.c_char * 4096),
                ("pcs", ctypes.c_uint64 * FRAMES), ("npcs", ctypes.c_int), ("pc_exact", ctypes.c_int),
                ("other_pc", ctypes.c_uint64)]


class SimResult(ctypes.Structure):
    _fields_ = [("main", SimReport), ("first", SimReport), ("undefined_reads", ctypes.c_int),
                ("note", ctypes.c_char * 1024)]


def declare_runtime(lib):
    """Give the runtime library's functions their C signatures."""
    lib.opsdk_sim_abi.restype = ctypes.c_int
    lib.opsdk_sim_run.argtypes = [ctypes.POINTER(SimLaunch), ctypes.POINTER(SimResult)]
    lib.opsdk_sim_run.restype = ctypes.c_int
    lib.opsdk_sim_alloc.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64),
                                    ctypes.POINTER(ctypes.c_uint64)]
    lib.opsdk_sim_alloc.restype = ctypes.c_void_p
    lib.opsdk_sim_free.argtypes = [ctypes.c_void_p]
    lib.opsdk_sim_free.restype = None
    lib.opsdk_sim_check_canaries.argtypes = [ctypes.c_void_p]
    lib.opsdk_sim_check_canaries.restype = ctypes.c_int64
    lib.opsdk_sim_fill_uninitialised.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.opsdk_sim_fill_uninitialised.restype = None
    lib.opsdk_sim_switch_kind.restype = ctypes.c_char_p
    return lib

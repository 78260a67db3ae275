"""opsdk.device as Paddle's paddle.device: the places (device.py), the machine's answers
(device_queries.py), waiting and memory (device_memory.py), and, installed here from above
because they need the ops: the random state of "the device" (opsdk's one generator), its seed,
the typed tensor constructors and device_guard; and ``opsdk.device.cuda`` (device_cuda.py),
Paddle's older names for the GPU calls."""
from contextlib import contextmanager

from . import device as _device, device_cuda, device_memory, device_queries
from .errors import NoDeviceError

QUERIES = ("device_count", "is_available", "is_compiled_with_cuda", "is_compiled_with_xpu",
           "is_compiled_with_ipu", "is_compiled_with_rocm", "is_compiled_with_cinn",
           "is_compiled_with_distribute", "is_compiled_with_custom_device",
           "is_current_stream_capturing", "is_bf16_supported", "get_all_device_type",
           "get_available_device", "get_all_custom_device_type", "get_available_custom_device",
           "get_cudnn_version", "get_device_properties", "get_device_name",
           "get_device_capability")
MEMORY = ("synchronize", "empty_cache", "memory_allocated", "memory_reserved",
          "max_memory_allocated", "max_memory_reserved", "reset_max_memory_allocated",
          "reset_max_memory_reserved", "reset_peak_memory_stats")
TYPED = ("FloatTensor", "DoubleTensor", "HalfTensor", "ByteTensor", "CharTensor", "ShortTensor",
         "IntTensor", "LongTensor", "BoolTensor")


def get_rng_state(device=None):
    """The generator's state (one, not a list as ``opsdk.get_rng_state`` gives)."""
    from .functional.random import get_rng_state as states
    return states()[0]


def set_rng_state(new_state, device=None):
    """Restore a state get_rng_state returned."""
    from .functional.random import set_rng_state as restore
    restore([new_state])


def manual_seed(seed):
    """Seed opsdk's generator (as ``opsdk.seed``)."""
    from .functional.random import manual_seed as seed_all
    seed_all(seed)


@contextmanager
def device_guard(device):
    """Run a block "on" a device: opsdk places each tensor where its ``place=`` says, so this
    only checks that the device exists (a GPU needs CuPy to find one)."""
    place = _device.parse_place(device)
    if place.is_gpu_place() and not device_queries.is_compiled_with_cuda():
        raise NoDeviceError(f"device_guard: device: expected: 'cpu' (no GPU is found here); "
                            f"got: {device!r}")
    yield


def install(top):
    """Put these names on opsdk.device; ``top`` is opsdk's namespace (the typed tensors)."""
    names = {n: getattr(device_queries, n) for n in QUERIES}
    names.update({n: getattr(device_memory, n) for n in MEMORY})
    names.update({n: top[n] for n in TYPED})
    names.update(get_rng_state=get_rng_state, set_rng_state=set_rng_state,
                 manual_seed=manual_seed, device_guard=device_guard, cuda=device_cuda)
    for name, value in names.items():
        setattr(_device, name, value)

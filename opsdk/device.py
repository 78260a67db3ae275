"""Places: arrays live in NumPy on the CPU and in CuPy on a GPU (imported lazily)."""
import numpy as np

from .errors import OpArgumentError

_cupy = None


def cupy_module():
    """Import CuPy on first use; raise a clear error where it is missing."""
    global _cupy
    if _cupy is None:
        try:
            import cupy
        except ImportError as e:  # pragma: no cover - depends on the machine
            raise OpArgumentError("place='gpu' needs CuPy; expected: `pip install opsdk[cuda]` "
                                  f"and a CUDA GPU; got: {e}") from e
        _cupy = cupy
    return _cupy


class Place:
    """Where a tensor's array lives: Place(cpu) or Place(gpu:N)."""

    __slots__ = ("kind", "index")

    def __init__(self, kind="cpu", index=0):
        self.kind = kind
        self.index = index

    def is_cpu_place(self):
        return self.kind == "cpu"

    def is_gpu_place(self):
        return self.kind == "gpu"

    def __eq__(self, other):
        if isinstance(other, str):
            # `==` answers, never raises: a string that names no place is simply unequal
            try:
                other = parse_place(other)
            except OpArgumentError:
                return False
        return isinstance(other, Place) and (self.kind, self.index) == (other.kind, other.index)

    def __hash__(self):
        return hash((self.kind, self.index))

    def __repr__(self):
        return "Place(cpu)" if self.kind == "cpu" else f"Place(gpu:{self.index})"


CPU = Place("cpu")


def CPUPlace():
    return CPU


def CUDAPlace(index=0):
    return Place("gpu", index)


def parse_place(place):
    """Accept None, 'cpu', 'gpu', 'gpu:1', Place."""
    if place is None or isinstance(place, Place):
        return place or CPU
    if isinstance(place, str):
        p = place.lower()
        if p == "cpu":
            return CPU
        if p in ("gpu", "cuda"):
            return Place("gpu", 0)
        if p.startswith(("gpu:", "cuda:")):
            return Place("gpu", int(p.split(":", 1)[1]))
    raise OpArgumentError(f"place: expected: 'cpu', 'gpu' or 'gpu:N'; got: {place!r}")


def place_of(data):
    """The Place of an array."""
    if type(data) is np.ndarray:
        return CPU
    dev = getattr(data, "device", None)
    return Place("gpu", getattr(dev, "id", 0))


def move_to(data, place):
    """Copy an array to a place (no copy when already there)."""
    if place.kind == "cpu":
        if type(data) is np.ndarray:
            return data
        return data.get() if hasattr(data, "get") else np.asarray(data)
    cp = cupy_module()
    with cp.cuda.Device(place.index):
        return cp.asarray(data)


def array_module(data):
    """numpy for NumPy arrays, cupy for CuPy arrays."""
    if type(data) is np.ndarray:
        return np
    return cupy_module()


def set_device(device):
    """Paddle's ``paddle.device.set_device("cpu")`` (also ``"gpu"``, ``"gpu:1"``): the Place
    it names. opsdk puts each tensor where its ``place=`` says (the CPU by default), so this
    checks the name and returns the place."""
    return parse_place(device)


def get_device(input=None):
    """Paddle's ``paddle.get_device``: the default device's name, ``"cpu"`` (tensors go to a GPU
    only when asked); given a Tensor, the index of the GPU it is on, or -1 on the CPU."""
    place = getattr(input, "place", None)
    if not isinstance(place, Place):
        return "cpu"
    return -1 if place.is_cpu_place() else place.index

"""get_worker_info: opsdk's DataLoader reads every batch in the calling process (num_workers > 0
included), so there is never a worker and the answer is None, as in Paddle's main process."""
from ...errors import StateError


class WorkerInfo:
    """What Paddle tells a worker process about itself (num_workers, id, dataset, seed); its
    fields are fixed once made."""

    _frozen = False

    def __init__(self, **fields):
        for key, value in fields.items():
            setattr(self, key, value)
        self._frozen = True

    def __setattr__(self, key, value):
        if self._frozen:
            raise StateError(f"Cannot assign attributes to {type(self).__name__} objects")
        super().__setattr__(key, value)


def get_worker_info():
    """None: the caller is not a DataLoader worker (opsdk starts none)."""
    return None

"""paddle.io.DataLoader for dygraph on the CPU: batches of a dataset, as Tensors.

Every batch is read in the calling process. ``num_workers > 0`` is accepted and reads the same
batches in the same order as Paddle's workers deliver them (a map-style dataset), without
processes: ``worker_init_fn`` is not called and get_worker_info() stays None, so an
IterableDataset that splits itself by worker yields its whole stream once.

One difference: with batch_size=None, Paddle ends the loop at a sample that holds no array
or Tensor (only numbers and strings); opsdk hands such a sample out as it is.
"""
from ..errors import AssertedArgumentError, OpArgumentError
from .dataloader.batch_sampler import BatchSampler
from .dataloader.collate import default_collate_fn, default_convert_fn, to_tensors
from .dataloader.dataset import IterableDataset


def _assert(ok, message):
    if not ok:
        raise AssertedArgumentError(f"DataLoader: {message}")


class DataLoader:
    """Iterate over ``dataset`` in batches of batch_size samples (shuffled when shuffle; the
    last shorter batch dropped when drop_last), or over batch_sampler's index lists; each batch
    goes through collate_fn (default_collate_fn) and comes out with its arrays as Tensors.
    batch_size=None reads one sample at a time through default_convert_fn."""

    def __init__(self, dataset, feed_list=None, places=None, return_list=True,
                 batch_sampler=None, batch_size=1, shuffle=False, drop_last=False,
                 collate_fn=None, num_workers=0, use_buffer_reader=True, reader_buffer_size=2,
                 prefetch_factor=2, use_shared_memory=True, timeout=0, worker_init_fn=None,
                 persistent_workers=False):
        _assert(num_workers >= 0, f"num_workers: expected: >= 0; got: {num_workers}")
        _assert(prefetch_factor > 0, f"prefetch_factor: expected: > 0; got: {prefetch_factor}")
        _assert(timeout >= 0, f"timeout: expected: >= 0; got: {timeout}")
        self.dataset, self.feed_list, self.places = dataset, feed_list, places
        self.return_list, self.collate_fn = return_list, collate_fn
        self.num_workers, self.worker_init_fn = num_workers, worker_init_fn
        self.use_buffer_reader, self.reader_buffer_size = use_buffer_reader, reader_buffer_size
        self.prefetch_factor, self.timeout = prefetch_factor, timeout
        self.use_shared_memory = use_shared_memory and num_workers > 0
        self._persistent_workers = persistent_workers
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable and shuffle:
            raise OpArgumentError(f"DataLoader: shuffle: expected: False for an "
                                  f"IterableDataset; got: {shuffle}")
        if self._iterable and batch_sampler is not None:
            raise OpArgumentError("DataLoader: batch_sampler: expected: None for an "
                                  "IterableDataset; got: a batch sampler")
        if batch_sampler is not None:
            _assert(batch_size == 1 and not shuffle and not drop_last,
                    "batch_size, shuffle and drop_last: expected: left as they are when "
                    "batch_sampler is given")
            self.batch_sampler, self.batch_size = batch_sampler, None
        elif batch_size is None:
            self.batch_sampler, self.batch_size = None, None
        else:
            _assert(isinstance(batch_size, int) and batch_size > 0,
                    f"batch_size: expected: None or a positive int; got: {batch_size!r}")
            self.batch_size = batch_size
            self.batch_sampler = None if self._iterable else BatchSampler(
                dataset=dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_size is not None or batch_sampler is not None

    def __len__(self):
        if self._iterable:
            raise OpArgumentError("DataLoader: len() of an IterableDataset's loader: "
                                  "expected: a map-style dataset; got: an IterableDataset")
        return len(self.batch_sampler) if self.auto_collate_batch else len(self.dataset)

    def __iter__(self):
        return (to_tensors(batch) for batch in self._batches())

    def __call__(self):
        return self.__iter__()

    def _batches(self):
        collate = self.collate_fn or (default_collate_fn if self.auto_collate_batch
                                      else default_convert_fn)
        if not self.auto_collate_batch:
            samples = iter(self.dataset) if self._iterable else (
                self.dataset[i] for i in range(len(self.dataset)))
            for sample in samples:
                yield collate(sample)
        elif self._iterable:
            yield from self._stream_batches(collate)
        else:
            for indices in self.batch_sampler:
                yield collate([self.dataset[i] for i in indices])

    def _stream_batches(self, collate):
        stream = iter(self.dataset)
        while True:
            batch = []
            for sample in stream:
                batch.append(sample)
                if len(batch) == self.batch_size:
                    break
            if not batch or (len(batch) < self.batch_size and self.drop_last):
                return
            yield collate(batch)
            if len(batch) < self.batch_size:
                return

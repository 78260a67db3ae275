"""Training with opsdk ops inside torch DistributedDataParallel: gloo, 2 processes, CPU.

A small classifier uses three opsdk ops as native torch ops (``example.swish``,
``nn.layer_norm`` and ``nn.cross_entropy``, through ``opsdk.interop.torch.op``). Two processes
each train on half of the batch under DistributedDataParallel, which averages their gradients;
after 3 SGD steps their parameters must equal a single process trained on the whole batch
(float64, 1e-6). opsdk adds no distributed machinery: DDP's hooks see ordinary torch autograd.

Run: python examples/ddp_torch.py
"""
import os
import socket
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

import opsdk

STEPS, BATCH, WORLD = 3, 16, 2
TOLERANCE = 1e-6


class Classifier(torch.nn.Module):
    """Linear -> swish -> layer_norm -> Linear, all float64."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.inner = torch.nn.Linear(5, 8, dtype=torch.float64)
        self.norm_weight = torch.nn.Parameter(torch.ones(8, dtype=torch.float64))
        self.outer = torch.nn.Linear(8, 3, dtype=torch.float64)
        self.swish = opsdk.interop.torch.op("example.swish")
        self.layer_norm = opsdk.interop.torch.op("nn.layer_norm")

    def forward(self, x):
        h = self.swish(self.inner(x), beta=1.5)
        h = self.layer_norm(h, self.norm_weight, None, normalized_shape=[8])
        return self.outer(h)


def data():
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(BATCH, 5, dtype=torch.float64, generator=generator)
    labels = torch.randint(0, 3, (BATCH,), generator=generator)
    return x, labels


def train(model, x, labels):
    """STEPS of SGD on (x, labels); the model's final parameters."""
    cross_entropy = opsdk.interop.torch.op("nn.cross_entropy")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(STEPS):
        optimizer.zero_grad()
        cross_entropy(model(x), labels).backward()
        optimizer.step()
    return [p.detach().clone() for p in model.parameters()]


def worker(rank, port, out_path):
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=WORLD)
    try:
        x, labels = data()
        half = BATCH // WORLD
        model = torch.nn.parallel.DistributedDataParallel(Classifier())
        params = train(model, x[rank * half:(rank + 1) * half], labels[rank * half:(rank + 1) * half])
        if rank == 0:
            torch.save(params, out_path)
    finally:
        dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(verbose=True):
    x, labels = data()
    single = train(Classifier(), x, labels)
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "ddp_params.pt")
        mp.spawn(worker, args=(free_port(), out_path), nprocs=WORLD, join=True)
        distributed = torch.load(out_path)
    difference = max(float((a - b).abs().max()) for a, b in zip(single, distributed))
    initial = [p.detach() for p in Classifier().parameters()]
    moved = max(float((a - b).abs().max()) for a, b in zip(single, initial))
    if verbose:
        print(f"DDP (gloo, {WORLD} processes) vs one process on the whole batch, {STEPS} steps:")
        print(f"max parameter difference {difference:.3g} (tolerance {TOLERANCE}); "
              f"parameters moved by up to {moved:.3g}")
    return {"difference": difference, "moved": moved}


if __name__ == "__main__":
    result = main()
    sys.exit(0 if result["difference"] <= TOLERANCE and result["moved"] > 1e-3 else 1)

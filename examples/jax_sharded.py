"""opsdk ops under jax.jit with the batch sharded over 2 host devices.

The classifier of examples/ddp_torch.py, in JAX: ``example.swish``, ``nn.layer_norm`` and
``nn.cross_entropy`` through ``opsdk.interop.jax.op``. The loss and its gradients are computed
under ``jax.jit`` with the batch sharded over two CPU devices
(``XLA_FLAGS=--xla_force_host_platform_device_count=2``, set here before JAX starts), each
device running the kernels on its shard (``jax.shard_map``), and must equal the unsharded run
(float64, 1e-10). Scale-out is JAX's own: opsdk only supplies the op.

Run: python examples/jax_sharded.py
"""
import os
import sys

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_force_host_platform_device_count=2").strip()

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec  # noqa: E402

import opsdk  # noqa: E402

jax.config.update("jax_enable_x64", True)
BATCH, TOLERANCE = 16, 1e-10


def params():
    rng = np.random.default_rng(0)
    return {"inner": rng.standard_normal((5, 8)) * 0.5, "norm": np.ones(8),
            "outer": rng.standard_normal((8, 3)) * 0.5}


def loss(p, x, labels):
    swish = opsdk.interop.jax.op("example.swish")
    layer_norm = opsdk.interop.jax.op("nn.layer_norm")
    cross_entropy = opsdk.interop.jax.op("nn.cross_entropy")
    h = swish(x @ p["inner"], beta=1.5)
    h = layer_norm(h, p["norm"], None, normalized_shape=[8])
    return cross_entropy(h @ p["outer"], labels)


def main(verbose=True):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, 5))
    labels = rng.integers(0, 3, BATCH)
    p = jax.tree_util.tree_map(jax.numpy.asarray, params())
    step = jax.jit(jax.value_and_grad(loss))
    plain_loss, plain_grads = step(p, jax.numpy.asarray(x), jax.numpy.asarray(labels))

    devices = jax.devices()
    if len(devices) < 2:
        raise SystemExit(f"expected 2 host devices (XLA_FLAGS); got: {len(devices)}")
    mesh = Mesh(np.array(devices[:2]), ("batch",))
    xs = jax.device_put(x, NamedSharding(mesh, PartitionSpec("batch", None)))
    ls = jax.device_put(labels, NamedSharding(mesh, PartitionSpec("batch")))

    # each device runs the ops' kernels on its own half of the batch; the mean of the two
    # half-batch losses (and gradients) is the whole batch's mean. check_vma=False: a
    # pure_callback's results carry no per-device type, so shard_map cannot type-check them
    def per_device(p, x, labels):
        return jax.lax.pmean(jax.value_and_grad(loss)(p, x, labels), "batch")

    sharded_step = jax.jit(jax.shard_map(
        per_device, mesh=mesh, in_specs=(PartitionSpec(), PartitionSpec("batch"),
                                         PartitionSpec("batch")), out_specs=PartitionSpec(),
        check_vma=False))
    sharded_loss, sharded_grads = sharded_step(p, xs, ls)

    difference = max([abs(float(sharded_loss - plain_loss))] +
                     [float(np.max(np.abs(sharded_grads[k] - plain_grads[k]))) for k in p])
    if verbose:
        print(f"loss {float(plain_loss):.6f}; batch sharded over 2 devices "
              f"({', '.join(str(d) for d in xs.sharding.device_set)}): max difference of loss "
              f"and gradients {difference:.3g} (tolerance {TOLERANCE})")
    return {"difference": difference, "devices": len(xs.sharding.device_set)}


if __name__ == "__main__":
    result = main()
    sys.exit(0 if result["difference"] <= TOLERANCE and result["devices"] == 2 else 1)

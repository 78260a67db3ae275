"""saved_tensors_hooks: every tensor a core op or a PyLayer saves is packed when saved and
unpacked when backward reads it (Paddle 3.3.1 calls them for both)."""
import numpy as np

import opsdk
from verification.check.ops import Square


def test_hooks_pack_at_save_and_unpack_in_backward():
    calls = []

    def pack(t):
        calls.append("pack")
        return t.numpy()

    def unpack(a):
        calls.append("unpack")
        return opsdk.to_tensor(a)

    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    with opsdk.autograd.saved_tensors_hooks(pack, unpack):
        y = Square.apply(x)
        z = x * y  # multiply saves both operands
    after_forward = list(calls)
    z.sum().backward()
    # as Paddle: three packs in forward, three unpacks in backward
    assert after_forward == ["pack"] * 3 and calls == ["pack"] * 3 + ["unpack"] * 3
    assert x.grad.numpy().tolist() == [3.0, 12.0]


def test_the_unpacked_values_are_what_backward_uses():
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    with opsdk.autograd.saved_tensors_hooks(lambda t: t.numpy(),
                                             lambda a: opsdk.to_tensor(a * 10)):
        y = x * x
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [20.0, 40.0])
    # outside the block nothing is packed
    x.clear_grad()
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])

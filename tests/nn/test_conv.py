"""Conv1D, Conv2D, MaxPool2D, AvgPool2D, BatchNorm1D, BatchNorm2D as layers: shapes,
parameters and buffers under Paddle's names, train/eval, and a small network against Paddle."""
import numpy as np
import pytest

import opsdk


def test_layers_shapes_parameters_and_modes():
    conv = opsdk.nn.Conv2D(3, 8, 3, padding=1, groups=1)
    assert conv.weight.shape == [8, 3, 3, 3] and conv.bias.shape == [8]
    assert conv(opsdk.randn([2, 3, 5, 5])).shape == [2, 8, 5, 5]
    assert opsdk.nn.Conv1D(3, 2, 3)(opsdk.randn([2, 3, 7])).shape == [2, 2, 5]
    assert opsdk.nn.MaxPool2D(2)(opsdk.randn([1, 1, 4, 4])).shape == [1, 1, 2, 2]
    assert opsdk.nn.AvgPool2D(2, stride=1)(opsdk.randn([1, 1, 4, 4])).shape == [1, 1, 3, 3]
    bn = opsdk.nn.BatchNorm1D(3)
    assert sorted(bn.state_dict()) == ["_mean", "_variance", "bias", "weight"]
    x = opsdk.randn([16, 3]) * 2 + 5
    y = bn(x)  # training: the batch's statistics
    np.testing.assert_allclose(y.numpy().mean(0), 0, atol=1e-5)
    assert bn._mean.numpy() == pytest.approx(0.1 * x.numpy().mean(0), rel=1e-5)
    bn.eval()
    np.testing.assert_allclose(bn(x).numpy(), (x.numpy() - bn._mean.numpy()) /
                               np.sqrt(bn._variance.numpy() + 1e-5), rtol=1e-5)
    assert opsdk.nn.BatchNorm2D(2)(opsdk.randn([2, 2, 3, 3])).shape == [2, 2, 3, 3]


def test_batch_norm_running_statistics_are_parameters_that_do_not_train():
    bn = opsdk.nn.BatchNorm1D(2)
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias", "_mean", "_variance"]
    assert list(bn.named_buffers()) == []
    assert not bn._mean.trainable and bn._variance.stop_gradient
    opt = opsdk.optimizer.SGD(learning_rate=1.0, parameters=bn.parameters())
    bn(opsdk.to_tensor([[1.0, 2.0], [3.0, 6.0]])).sum().backward()
    assert bn._mean.grad is None
    opt.step()  # the optimizer leaves them alone: only the forward's update moved them
    assert bn._mean.numpy().tolist() == pytest.approx([0.2, 0.4])


@pytest.mark.paddle
def test_a_small_network_matches_paddle():
    import paddle
    x = np.random.default_rng(1).standard_normal((4, 3, 6, 6)).astype("float32")
    runs = {}
    state = None
    for P in (paddle, opsdk):
        net = P.nn.Sequential(P.nn.Conv2D(3, 4, 3, padding=1), P.nn.BatchNorm2D(4), P.nn.ReLU(),
                              P.nn.MaxPool2D(2), P.nn.Conv2D(4, 2, 2), P.nn.AvgPool2D(2))
        if state is None:
            state = {k: v.numpy() for k, v in net.state_dict().items()}
        else:
            net.set_state_dict({k: P.to_tensor(v) for k, v in state.items()})
        xt = P.to_tensor(x, stop_gradient=False)
        y = net(xt)
        y.sum().backward()
        net.eval()
        runs[P] = [y.numpy(), xt.grad.numpy(), net[0].weight.grad.numpy(), net[1]._mean.numpy(),
                   net[1]._variance.numpy(), net(xt).numpy(), sorted(net.state_dict())]
    *theirs, their_keys = runs[paddle]
    *ours, our_keys = runs[opsdk]
    assert their_keys == our_keys
    for a, b in zip(theirs, ours):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5)


def test_torch_style_names_and_keywords_as_paddle():
    assert opsdk.nn.Conv2d is opsdk.nn.Conv2D and opsdk.nn.Conv1d is opsdk.nn.Conv1D
    conv = opsdk.nn.Conv2d(3, 4, 2, bias=False, dtype="float64")
    assert conv.bias is None and conv.weight.dtype == opsdk.float64
    assert opsdk.nn.Conv1d(3, 4, 2, device="cpu").bias.shape == [4]


@pytest.mark.paddle
@pytest.mark.parametrize("make, shape", [
    (lambda P: P.nn.BatchNorm3D(3, momentum=0.8), (2, 3, 2, 3, 2)),
    (lambda P: P.nn.BatchNorm3D(3, data_format="NDHWC"), (2, 2, 3, 2, 3)),
    (lambda P: P.nn.BatchNorm(3, act="relu", dtype="float64"), (4, 3, 2, 2)),
    (lambda P: P.nn.BatchNorm(3, data_layout="NHWC", use_global_stats=True), (4, 2, 2, 3)),
    (lambda P: P.nn.BatchNorm(3, is_test=True), (4, 3, 5)),
])
def test_batch_norm_3d_and_the_older_batch_norm_match_paddle(make, shape):
    import warnings
    paddle = pytest.importorskip("paddle")
    x = np.random.default_rng(1).standard_normal(shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = make(paddle)
    ours = make(opsdk)
    assert [(n, p.shape, str(p.dtype)) for n, p in ours.named_parameters()] == [
        (n, list(p.shape), str(p.dtype)) for n, p in theirs.named_parameters()]
    dtype = str(ours.weight.dtype).replace("paddle.", "")
    for mode in ("train", "eval"):
        if mode == "eval":
            ours.eval(), theirs.eval()
        got = ours(opsdk.to_tensor(x.astype(dtype))).numpy()
        want = theirs(paddle.to_tensor(x.astype(dtype))).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(ours._mean.numpy(), theirs._mean.numpy(), rtol=1e-5,
                                   atol=1e-6)


@pytest.mark.paddle
@pytest.mark.parametrize("layer,shape", [("BatchNorm1D", [2, 3, 4, 5]), ("BatchNorm1D", [3]),
                                         ("BatchNorm2D", [2, 3, 4]), ("BatchNorm2D", [1, 3, 2, 2, 2]),
                                         ("BatchNorm3D", [2, 3, 4, 5])])
def test_batch_norm_layers_refuse_another_rank_as_paddle(layer, shape):
    from helpers.frameworks import assert_raises_as_paddle
    err = assert_raises_as_paddle(lambda P: getattr(P.nn, layer)(3)(P.ones(shape)))
    assert f"{layer}: expected" in str(err) and f"got {len(shape)}D input" in str(err)

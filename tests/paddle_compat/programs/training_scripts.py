"""Training scripts as users write them, reaching for paddle.io, paddle.metric,
paddle.regularizer, paddle.nn.initializer and paddle.nn.utils: the same weights and batches
give the same losses, metrics and trained weights."""
import numpy as np

from . import program

RNG = np.random.default_rng(26)
FEATURES = RNG.standard_normal((10, 4)).astype("float32")
LABELS = RNG.integers(0, 3, (10, 1)).astype("int64")
W1 = (RNG.standard_normal((4, 5)) * 0.5).astype("float32")
W2 = (RNG.standard_normal((5, 3)) * 0.5).astype("float32")


def _samples(paddle):
    class Samples(paddle.io.Dataset):
        def __len__(self):
            return len(FEATURES)

        def __getitem__(self, i):
            return FEATURES[i], LABELS[i]
    return Samples()


def _model(paddle, wrap=None):
    decay = paddle.ParamAttr(regularizer=paddle.regularizer.L2Decay(0.01))
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 5, weight_attr=decay), paddle.nn.Tanh(),
                                 paddle.nn.Linear(5, 3))
    model[0].weight.set_value(W1)
    model[2].weight.set_value(W2)
    for p in (model[0].bias, model[2].bias):
        p.set_value(np.zeros(p.shape, "float32"))
    if wrap:
        wrap(paddle, model)
    return model


def _train(paddle, wrap=None, epochs=2, **loader):
    model = _model(paddle, wrap)
    opt = paddle.optimizer.Momentum(0.1, parameters=model.parameters(),
                                    weight_decay=paddle.regularizer.L1Decay(0.001))
    metric = paddle.metric.Accuracy(topk=(1, 2))
    losses, accs = [], []
    for _ in range(epochs):
        metric.reset()
        for x, y in paddle.io.DataLoader(_samples(paddle), **loader):
            logits = model(x)
            loss = paddle.nn.functional.cross_entropy(logits, y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            metric.update(metric.compute(logits, y))
            losses.append(float(loss))
        accs.append(metric.accumulate())
    return {"losses": losses, "accs": accs,
            "params": {n: p.numpy() for n, p in model.named_parameters()}}


@program(item="namespaces")
def ns_dataloader_metric_regularizer_loop(paddle):
    return _train(paddle, batch_size=4)


@program(item="namespaces")
def ns_dataloader_drop_last_batch_sampler(paddle):
    sampler = paddle.io.BatchSampler(dataset=_samples(paddle), batch_size=3, drop_last=True)
    return _train(paddle, batch_sampler=sampler)


@program(item="namespaces")
def ns_weight_norm_in_training(paddle):
    return _train(paddle, wrap=lambda P, m: P.nn.utils.weight_norm(m[0]), batch_size=5)


@program(item="namespaces")
def ns_spectral_norm_in_eval_steps(paddle):
    # eval mode: no power iteration, so u and v (random at the start) are set to fixed values
    def wrap(P, model):
        P.nn.utils.spectral_norm(model[2])
        model[2].weight_u.set_value(np.linspace(-1, 1, 3).astype("float32"))
        model[2].weight_v.set_value(np.linspace(1, 2, 5).astype("float32"))
        model.eval()
    return _train(paddle, wrap=wrap, epochs=1, batch_size=5)

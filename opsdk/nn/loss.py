"""Loss layers over opsdk.nn.functional: cross entropy, MSE, L1, smooth L1 (Huber), BCE, NLL,
KL; the margin, embedding and likelihood losses (loss_metric); CTC; adaptive log softmax."""
from ..errors import ArgumentTypeError, OpArgumentError
from ..functional.reduction import argmax
from ..functional.shape import concat
from .functional import loss_adaptive, loss_extra, loss_metric, loss_sequence
from .functional.activation import log_softmax as F_log_softmax
from .functional.common import linear as F_linear
from .functional.loss import _check_reduction, cross_entropy, mse_loss
from .layer import Layer


# the loss layers whose constructor refuses an unknown reduction, as Paddle 3.3.1's do (a
# ValueError at construction); the others (CrossEntropyLoss, KLDivLoss, SmoothL1Loss, ...)
# refuse it when called, as Paddle's
_REDUCTION_AT_INIT = {"BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss", "GaussianNLLLoss",
                      "L1Loss", "MSELoss", "MarginRankingLoss", "MultiLabelMarginLoss",
                      "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss",
                      "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss",
                      "TripletMarginWithDistanceLoss"}


def _reduction_at_init(layer, options):
    name = type(layer).__name__
    if name in _REDUCTION_AT_INIT and "reduction" in options:
        _check_reduction(options["reduction"], name)


class CrossEntropyLoss(Layer):
    """``F.cross_entropy`` with its options fixed at construction; call as loss(input, label)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False,
                 axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
        super().__init__()
        self._opts = dict(weight=weight, ignore_index=ignore_index, reduction=reduction,
                          soft_label=soft_label, axis=axis, use_softmax=use_softmax,
                          label_smoothing=label_smoothing)

    def forward(self, input, label):
        return cross_entropy(input, label, **self._opts)


class MSELoss(Layer):
    """``F.mse_loss`` with a fixed reduction; call as loss(input, label)."""

    def __init__(self, reduction="mean"):
        super().__init__()
        _reduction_at_init(self, {"reduction": reduction})
        self._reduction = reduction

    def forward(self, input, label):
        return mse_loss(input, label, self._reduction)


class _Loss(Layer):
    """A loss layer: the functional loss with the options given at construction."""

    _fn = None

    def __init__(self, **options):
        super().__init__()
        _reduction_at_init(self, options)
        self._options = options

    def forward(self, input, label):
        return type(self)._fn(input, label, **self._options)


class L1Loss(_Loss):
    """``F.l1_loss``: reduce(|input - label|)."""
    _fn = staticmethod(loss_extra.l1_loss)

    def __init__(self, reduction="mean", name=None):
        super().__init__(reduction=reduction)


class SmoothL1Loss(_Loss):
    """``F.smooth_l1_loss``: quadratic below delta, linear above."""
    _fn = staticmethod(loss_extra.smooth_l1_loss)

    def __init__(self, reduction="mean", delta=1.0, is_huber=True, name=None):
        super().__init__(reduction=reduction, delta=delta, is_huber=is_huber)


class HuberLoss(SmoothL1Loss):
    """``F.smooth_l1_loss`` under Paddle's other name: the Huber loss (is_huber=True)."""


class BCELoss(_Loss):
    """``F.binary_cross_entropy`` on probabilities."""
    _fn = staticmethod(loss_extra.binary_cross_entropy)

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__(weight=weight, reduction=reduction)


class BCEWithLogitsLoss(_Loss):
    """``F.binary_cross_entropy_with_logits`` on logits."""
    _fn = staticmethod(loss_extra.binary_cross_entropy_with_logits)

    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        super().__init__(weight=weight, reduction=reduction, pos_weight=pos_weight)


class NLLLoss(_Loss):
    """``F.nll_loss`` on log-probabilities and class ids."""
    _fn = staticmethod(loss_extra.nll_loss)

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction)


class KLDivLoss(_Loss):
    """``F.kl_div`` of log-probabilities against a target distribution."""
    _fn = staticmethod(loss_extra.kl_div)

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction=reduction, log_target=log_target)


class _LossN(Layer):
    """A layer over a functional loss (or distance) of several inputs: the constructor takes
    the function's options (``_options``: names and defaults, in Paddle's order, positionally
    or by name; ``name`` is accepted and unused); forward(*inputs) calls the function."""

    _fn = None
    _options = ()

    def __init__(self, *args, name=None, **kwargs):
        super().__init__()
        op = type(self).__name__
        names = [k for k, _ in self._options]
        if len(args) > len(names):
            raise ArgumentTypeError(f"{op}: takes at most {len(names)} positional options "
                                    f"({', '.join(names)}); got: {len(args)}")
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            raise ArgumentTypeError(f"{op}: unexpected option(s) {unknown}; expected: some of "
                                    f"{names}")
        opts = dict(self._options)
        opts.update(zip(names, args))
        opts.update(kwargs)
        _reduction_at_init(self, opts)
        self._opts = opts

    def forward(self, *inputs):
        return type(self)._fn(*inputs, **self._opts)

    def extra_repr(self):
        return ", ".join(f"{k}={v!r}" for k, v in self._opts.items())


class MarginRankingLoss(_LossN):
    """``F.margin_ranking_loss``: call as layer(input, other, label)."""
    _fn = staticmethod(loss_metric.margin_ranking_loss)
    _options = (('margin', 0.0), ('reduction', 'mean'))


class HingeEmbeddingLoss(_LossN):
    """``F.hinge_embedding_loss``: call as layer(input, label)."""
    _fn = staticmethod(loss_metric.hinge_embedding_loss)
    _options = (('margin', 1.0), ('reduction', 'mean'))


class CosineEmbeddingLoss(_LossN):
    """``F.cosine_embedding_loss``: call as layer(input1, input2, label)."""
    _fn = staticmethod(loss_metric.cosine_embedding_loss)
    _options = (('margin', 0), ('reduction', 'mean'))


class SoftMarginLoss(_LossN):
    """``F.soft_margin_loss``: call as layer(input, label)."""
    _fn = staticmethod(loss_metric.soft_margin_loss)
    _options = (('reduction', 'mean'),)


class TripletMarginLoss(_LossN):
    """``F.triplet_margin_loss``: call as layer(input, positive, negative)."""
    _fn = staticmethod(loss_metric.triplet_margin_loss)
    _options = (('margin', 1.0), ('p', 2.0), ('epsilon', 1e-06), ('swap', False), ('reduction',
                'mean'))


class TripletMarginWithDistanceLoss(_LossN):
    """``F.triplet_margin_with_distance_loss``: call as layer(input, positive, negative)."""
    _fn = staticmethod(loss_metric.triplet_margin_with_distance_loss)
    _options = (('distance_function', None), ('margin', 1.0), ('swap', False), ('reduction',
                'mean'))


class MultiMarginLoss(_LossN):
    """``F.multi_margin_loss``: call as layer(input, label)."""
    _fn = staticmethod(loss_metric.multi_margin_loss)
    _options = (('p', 1), ('margin', 1.0), ('weight', None), ('reduction', 'mean'))


class MultiLabelMarginLoss(_LossN):
    """``F.multi_label_margin_loss``: call as layer(input, label)."""
    _fn = staticmethod(loss_metric.multi_label_margin_loss)
    _options = (('reduction', 'mean'),)


class MultiLabelSoftMarginLoss(_LossN):
    """``F.multi_label_soft_margin_loss``: call as layer(input, label)."""
    _fn = staticmethod(loss_metric.multi_label_soft_margin_loss)
    _options = (('weight', None), ('reduction', 'mean'))


class PoissonNLLLoss(_LossN):
    """``F.poisson_nll_loss``: call as layer(input, label)."""
    _fn = staticmethod(loss_metric.poisson_nll_loss)
    _options = (('log_input', True), ('full', False), ('epsilon', 1e-08), ('reduction', 'mean'))


class GaussianNLLLoss(_LossN):
    """``F.gaussian_nll_loss``: call as layer(input, label, variance)."""
    _fn = staticmethod(loss_metric.gaussian_nll_loss)
    _options = (('full', False), ('epsilon', 1e-06), ('reduction', 'mean'))


class PairwiseDistance(_LossN):
    """``F.pairwise_distance``: call as layer(x, y)."""
    _fn = staticmethod(loss_metric.pairwise_distance)
    _options = (('p', 2.0), ('epsilon', 1e-06), ('keepdim', False))


METRIC_LOSSES = ["MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss",
                 "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
                 "MultiMarginLoss", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss",
                 "PoissonNLLLoss", "GaussianNLLLoss", "PairwiseDistance"]


class CTCLoss(Layer):
    """``F.ctc_loss``: call as loss(log_probs, labels, input_lengths, label_lengths,
    norm_by_times=False)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return loss_sequence.ctc_loss(log_probs, labels, input_lengths, label_lengths,
                                      self.blank, self.reduction, norm_by_times,
                                      self.zero_infinity)


class AdaptiveLogSoftmaxWithLoss(Layer):
    """``F.adaptive_log_softmax_with_loss`` with its parameters: head_weight [in_features,
    cutoffs[0] + clusters] (and head_bias), tail_weights[i] = [projection [in_features,
    in_features // div_value^(i+1)], output [that, cluster size]]. As Paddle's, only the head's
    parameters are registered (parameters() lists them); the tail weights live in a plain list.
    forward(input, label) returns (output, loss).
    """

    def __init__(self, in_features, n_classes, cutoffs, weight_attr=None, bias_attr=None,
                 div_value=4.0, head_bias=False, name=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1 or \
                len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs):
            raise OpArgumentError(f"AdaptiveLogSoftmaxWithLoss: cutoffs must be unique positive "
                                  f"integers in increasing order, each in [1, n_classes - 1]; "
                                  f"got: {cutoffs}")
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = [*cutoffs, n_classes]
        self.div_value = div_value
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size], attr=weight_attr)
        self.head_bias = self.create_parameter([self.head_size], attr=bias_attr, is_bias=True) \
            if head_bias else None
        tails = []
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            tails.append([self.create_parameter([in_features, hidden], attr=weight_attr),
                          self.create_parameter([hidden, size], attr=weight_attr)])
        object.__setattr__(self, "tail_weights", tails)  # unregistered, as in Paddle

    def forward(self, input, label):
        return loss_adaptive.adaptive_log_softmax_with_loss(
            input, label, self.head_weight, self.tail_weights, self.cutoffs, self.head_bias)

    def log_prob(self, input):
        """The log-probabilities of every class, [N, n_classes]."""
        head = F_log_softmax(F_linear(input, self.head_weight, self.head_bias), axis=1)
        parts = [head[:, :self.shortlist_size]]
        for i, (proj, out_w) in enumerate(self.tail_weights):
            cluster = F_log_softmax(F_linear(F_linear(input, proj), out_w), axis=1)
            parts.append(cluster + head[:, self.shortlist_size + i].unsqueeze(1))
        return concat(parts, axis=1)

    def predict(self, input):
        """The most likely class of each sample (float32 ids, as Paddle's)."""
        return argmax(self.log_prob(input), axis=1).astype("float32")


class HSigmoidLoss(Layer):
    """``F.hsigmoid_loss`` with its parameters: weight [num_classes - 1, feature_size] and bias
    [num_classes - 1, 1] (num_classes rows with is_custom); forward(input, label, path_table=None,
    path_code=None)."""

    def __init__(self, feature_size, num_classes, weight_attr=None, bias_attr=None,
                 is_custom=False, is_sparse=False, name=None):
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise OpArgumentError(f"HSigmoidLoss: num_classes must be at least 2; got: "
                                  f"{num_classes}")
        self._num_classes, self._is_custom, self._is_sparse = num_classes, is_custom, is_sparse
        rows = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([rows, feature_size], attr=weight_attr)
        self.bias = None if bias_attr is False else self.create_parameter(
            [rows, 1], attr=bias_attr, is_bias=True)

    def forward(self, input, label, path_table=None, path_code=None):
        return loss_adaptive.hsigmoid_loss(input, label, self._num_classes, self.weight,
                                           self.bias, path_table, path_code, self._is_sparse)


class RNNTLoss(Layer):
    """``F.rnnt_loss``: call as loss(input, label, input_lengths, label_lengths)."""

    def __init__(self, blank=0, fastemit_lambda=0.001, reduction="mean", name=None):
        super().__init__()
        self.blank, self.fastemit_lambda, self.reduction = blank, fastemit_lambda, reduction

    def forward(self, input, label, input_lengths, label_lengths):
        return loss_sequence.rnnt_loss(input, label, input_lengths, label_lengths, self.blank,
                                       self.fastemit_lambda, self.reduction)

"""Learning-rate schedulers (Paddle's paddle.optimizer.lr): call ``scheduler.step()`` once per
epoch/step; an optimizer given one as ``learning_rate`` reads ``scheduler()`` at every step."""
from .lr_base import LRScheduler
from .lr_cosine import CosineAnnealingDecay, CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR
from .lr_decay import (ExponentialDecay, InverseTimeDecay, LambdaDecay, LinearLR,
                       MultiplicativeDecay, MultiStepDecay, NaturalExpDecay, PiecewiseDecay,
                       PolynomialDecay, StepDecay)
from .lr_plateau import ReduceOnPlateau
from .lr_warmup import LinearWarmup, NoamDecay

__all__ = ["LRScheduler", "StepDecay", "MultiStepDecay", "ExponentialDecay", "NaturalExpDecay",
           "InverseTimeDecay", "PolynomialDecay", "PiecewiseDecay", "LambdaDecay",
           "MultiplicativeDecay", "LinearLR", "CosineAnnealingDecay",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "CyclicLR", "LinearWarmup", "NoamDecay",
           "ReduceOnPlateau"]

"""opsdk.optimizer: SGD, Momentum, Adam, AdamW and learning-rate schedulers (``lr``)."""
from . import lr, regularizer
from .adam import Adam
from .adamw import AdamW
from .momentum import Momentum
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "lr", "regularizer"]

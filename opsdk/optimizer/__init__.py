"""opsdk.optimizer: SGD, Momentum, Adam, AdamW, Adagrad, Adamax, RMSProp, Lamb and
learning-rate schedulers (``lr``)."""
from . import lr, regularizer
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .lamb import Lamb
from .momentum import Momentum
from .optimizer import Optimizer
from .rmsprop import RMSProp
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "Adagrad", "Adamax", "RMSProp",
           "Lamb", "lr", "regularizer"]

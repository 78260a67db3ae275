"""opsdk.optimizer: SGD, Momentum, Adam, AdamW, Adagrad, Adamax, RMSProp, Lamb, NAdam, RAdam,
Adadelta, ASGD, Rprop, LBFGS and learning-rate schedulers (``lr``)."""
from . import lr, regularizer
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lamb import Lamb
from .lbfgs import LBFGS
from .momentum import Momentum
from .nadam import NAdam
from .radam import RAdam
from .optimizer import Optimizer
from .rmsprop import RMSProp
from .rprop import Rprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "Adagrad", "Adamax", "RMSProp",
           "Lamb", "NAdam", "RAdam", "Adadelta", "ASGD", "Rprop", "LBFGS", "lr",
           "regularizer"]

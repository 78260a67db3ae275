"""Gradient verification: numeric Jacobians against the analytic ones an op's backward gives.

``gradcheck``/``gradgradcheck`` answer True/False (or raise GradcheckError with the report);
``check_gradients`` returns the GradcheckReport itself, for tools that render their own.
"""
from .api import gradcheck, gradgradcheck
from .report import Failure, GradcheckReport, Mismatch
from .runner import check_gradients

__all__ = ["gradcheck", "gradgradcheck", "check_gradients", "GradcheckReport", "Failure",
           "Mismatch"]

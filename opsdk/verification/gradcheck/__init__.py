"""Gradient verification: numeric Jacobians against the analytic ones an op's backward gives
(public as ``opsdk.gradcheck``).

``gradcheck``/``gradgradcheck`` answer True/False (or raise GradcheckError with the report);
``check_gradients`` / ``check_second_order`` return the GradcheckReport itself, for tools that
render their own.
"""
from .api import check_second_order, gradcheck, gradgradcheck
from .report import Failure, GradcheckReport, Mismatch
from .runner import check_gradients

__all__ = ["gradcheck", "gradgradcheck", "check_gradients", "check_second_order", "GradcheckReport", "Failure",
           "Mismatch"]

"""Paddle's graph modes: opsdk has only the dynamic (eager) one."""
from ..errors import UnsupportedError


def disable_static(place=None):
    """Dynamic-graph mode is the only mode; kept so Paddle scripts run unchanged."""


def enable_static():
    raise UnsupportedError("opsdk has no static-graph mode; drop paddle.enable_static()")


def in_dynamic_mode():
    return True

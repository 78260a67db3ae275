"""Registered ops: OpInfo and input specs, registration checks, the registry and name lookup
(public as ``opsdk.registry``)."""
from .specs import Sample, TensorSpec
from .tolerances import DEFAULT_TOLERANCES, VERIFIABLE_DTYPES
from .opinfo import OpInfo
from .registry import PackInfo, Registry
from .validation import build_opinfo

__all__ = ["TensorSpec", "Sample", "OpInfo", "PackInfo", "Registry", "build_opinfo",
           "DEFAULT_TOLERANCES", "VERIFIABLE_DTYPES"]

"""Importing an optional framework on first use, with an error that names the extra to install."""
import importlib

from ..errors import FrameworkNotInstalledError

# the import name of each framework, and what a user installs to get it
EXTRAS = {"torch": "torch", "jax": "jax", "paddle": "paddle"}
_DISTRIBUTIONS = {"torch": "torch==2.13.0", "jax": "jax and jaxlib", "paddle": "paddlepaddle"}


def require(framework):
    """The framework's module (``torch``, ``jax``, ``paddle``); FrameworkNotInstalledError if missing."""
    try:
        return importlib.import_module(EXTRAS[framework])
    except ImportError as error:
        raise FrameworkNotInstalledError(
            f"opsdk.interop.{framework} needs {framework}, which is not installed; expected: "
            f"`pip install opsdk[{framework}]` (it brings {_DISTRIBUTIONS[framework]}); "
            f"got: {type(error).__name__}: {error}") from error

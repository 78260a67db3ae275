"""Building a pack's wheel with its C kernels compiled in (setuptools commands, see ``hooks``)."""

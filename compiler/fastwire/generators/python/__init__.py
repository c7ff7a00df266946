"""The Python generator (module.py), on the fastwire_runtime package. See module.py."""

from .module import generate

__all__ = ["generate"]

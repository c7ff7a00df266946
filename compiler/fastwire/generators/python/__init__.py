"""The Python generator, on the fastwire_runtime package: module.py puts the parts
(classes, versioned, final, protocol) in order. See module.py."""

from .module import generate

__all__ = ["generate"]

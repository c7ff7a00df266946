"""The Go generator, on the runtime module in go/ (package fastwire). See generator.py."""

from .generator import generate

__all__ = ["generate"]

"""The Ruby generator (`fastwire compile --lang ruby`, the reference's `--ruby`)."""

from .generator import generate

__all__ = ["generate"]

"""The C++17 generator (generator.py: the domain and models headers; extras.py: the JSON
and protocol headers), on the header-only runtime in cpp/include/fastwire."""

from .generator import CppGenerator, generate

__all__ = ["CppGenerator", "generate"]

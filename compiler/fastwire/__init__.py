"""fastwire: a compiler for Fast Binary Encoding (`.fbe`) schemas.

    from fastwire import compile_schema, Reporter
    reporter = Reporter()
    schema = compile_schema("schemas/proto.fbe", reporter)   # an ir.Schema, or None

The pipeline is lexer → parser (syntax tree) → resolver (checks) → IR → generators.
"""

from .diagnostics import CompileError, Diagnostic, Reporter
from .resolver import compile_schema

__version__ = "0.1.0"

__all__ = ["CompileError", "Diagnostic", "Reporter", "compile_schema", "__version__"]

"""The Kotlin generator: one Kotlin package per FBE package, data classes over the same
JVM runtime as Java (`dev.fastwire`, java/runtime).

    fastwire compile schemas/proto.fbe --lang kotlin --final --json --proto -o gen/
    fastwire --kotlin --input=schemas/proto.fbe --output=gen/          # fbec's flags

See `generator.py` and java/README.md."""

from .generator import generate

__all__ = ["generate"]

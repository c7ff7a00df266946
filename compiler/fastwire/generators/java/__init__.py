"""The Java generator: one Java package per FBE package, on the `dev.fastwire` runtime.

    fastwire compile schemas/proto.fbe --lang java --final --json --proto -o gen/
    fastwire --java --input=schemas/proto.fbe --output=gen/          # fbec's flags

See `generator.py` and java/README.md."""

from .generator import generate

__all__ = ["generate"]

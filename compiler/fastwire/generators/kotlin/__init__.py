"""The Kotlin generator: one Kotlin package per FBE package, data classes over the same
JVM runtime as Java (`dev.fastwire`, java/runtime).

    fastwire compile schemas/proto.fbe --lang kotlin --final --json --proto -o gen/
    fastwire --kotlin --input=schemas/proto.fbe --output=gen/          # fbec's flags

A class per enum or flags type, a data class per struct (structs.py, its Codec rendered by
generators/jvm), the `<Package>Schema` object and with --proto the protocol (files.py).
See java/README.md."""

from .files import KotlinFiles

generate = KotlinFiles().generate

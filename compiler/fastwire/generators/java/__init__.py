"""The Java generator: one Java package per FBE package (the schema's `domain` as the
package prefix, as FBE does), on the `dev.fastwire` runtime (java/runtime).

    fastwire compile schemas/proto.fbe --lang java --final --json --proto -o gen/
    fastwire --java --input=schemas/proto.fbe --output=gen/          # fbec's flags

Each package `p` with domain `d` becomes the Java package `d.p` (folder `d/p/`): a class per
enum or flags type, per struct (structs.py, its Codec rendered by generators/jvm), the
`<Package>Schema` class and with --proto the protocol (files.py). See java/README.md."""

from .files import JavaFiles

generate = JavaFiles().generate

"""The protocol of a package in Kotlin: `<Package>Sender`, `<Package>Receiver` (an open
`onReceive` overload per message type), `<Package>Proxy` (verifies each message and passes
its bytes to an open `onProxy` overload per message type) and, with requests,
`<Package>Client` over the runtime's socket client. What is sent comes from the lowered model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from ... import ir
from ..jvm.names import java_package
from ..jvm.protocol import requests, sent_types

if TYPE_CHECKING:
    from .generator import KotlinGen


def protocol_files(g: "KotlinGen", pkg: ir.Package) -> Dict[str, str]:
    from .generator import schema_object
    folder = java_package(pkg).replace(".", "/")
    base = schema_object(pkg)[:-len("Schema")]
    sends = sent_types(g.model, pkg)
    files: Dict[str, str] = {}
    u = g.unit

    out = g.header(pkg)
    out(f"/** Sends the messages of package {pkg.name} into a stream (dev.fastwire.Sender). */")
    out.open(f"open class {base}Sender(finalFormat: Boolean = false) : dev.fastwire.Sender(finalFormat) {{")
    for s in sends:
        out(f"fun send(value: {s.name}): Int = send({s.name}.CODEC, value)")
    out.close()
    files[f"{folder}/{base}Sender.kt"] = out.text()

    out = g.header(pkg)
    out(f"/** Receives the messages of package {pkg.name}: override the onReceive overloads. */")
    out.open(f"open class {base}Receiver(finalFormat: Boolean = false) : dev.fastwire.Receiver(finalFormat) {{")
    for s in sends:
        out(f"protected open fun onReceive(value: {s.name}) {{", "}", "")
    out.open("override fun dispatch(type: Int, buf: ByteArray, off: Int, len: Int): Boolean {")
    out.open("when (type) {")
    for s in sends:
        out(f"{s.name}.TYPE -> onReceive(read({s.name}.CODEC, buf, off, len))")
    out("else -> return false")
    out.close()
    out("return true")
    out.close()
    out.close()
    files[f"{folder}/{base}Receiver.kt"] = out.text()

    out = g.header(pkg)
    out(f"/** Passes on the messages of package {pkg.name} without deserializing them: each is verified,",
        " * then handed as bytes to the onProxy overload of its type (the codec says which). */")
    out.open(f"open class {base}Proxy(finalFormat: Boolean = false) : dev.fastwire.Receiver(finalFormat) {{")
    for s in sends:
        out(f"protected open fun onProxy(codec: {s.name}.Codec, type: Int, buf: ByteArray, off: Int, len: Int) {{",
            "}", "")
    out.open("override fun dispatch(type: Int, buf: ByteArray, off: Int, len: Int): Boolean {")
    out.open("when (type) {")
    for s in sends:
        out(f"{s.name}.TYPE -> {{ verify({s.name}.CODEC, buf, off, len); "
            f"onProxy({s.name}.CODEC, type, buf, off, len) }}")
    out("else -> return false")
    out.close()
    out("return true")
    out.close()
    out.close()
    files[f"{folder}/{base}Proxy.kt"] = out.text()

    reqs = requests(pkg, sends)
    if reqs:
        out = g.header(pkg)
        out(f"/** A client of package {pkg.name}'s protocol over TCP: typed sends and requests. */")
        out.open(f"open class {base}Client(options: dev.fastwire.net.Options) : "
                 f"{base}Receiver(options.finalFormat), AutoCloseable {{")
        out("val net: dev.fastwire.net.Client = dev.fastwire.net.Client(options, this)", "",
            "fun connect(host: String, port: Int) = net.connect(host, port)", "",
            "override fun close() = net.close()")
        for s in sends:
            out(f"fun send(value: {s.name}): Boolean = net.send({s.name}.CODEC, value)")
        answers: Dict[str, str] = {}
        for s, resp, rejects in reqs:
            assert s.id_field is not None
            idf = g.ident(s.id_field.name)
            out("", f"fun request(value: {s.name}, timeoutMillis: Long = 0): "
                f"java.util.concurrent.CompletableFuture<{resp.name}> =",
                f"{u}net.request(value.{idf}, {s.name}.CODEC, value, timeoutMillis).thenApply {{ it as {resp.name} }}")
            answers[resp.name] = "resolve"
            for r in rejects:
                answers.setdefault(r.name, "reject")
        for name, how in answers.items():
            t = pkg.type(name)
            assert isinstance(t, ir.StructType) and t.id_field is not None
            out("", f"override fun onReceive(value: {name}) {{",
                f"{u}net.{how}(value.{g.ident(t.id_field.name)}, value)", "}")
        out.close()
        files[f"{folder}/{base}Client.kt"] = out.text()
    return files

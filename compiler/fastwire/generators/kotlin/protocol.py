"""The protocol of a package in Kotlin: `<Package>Sender`, `<Package>Receiver` (an open
`onReceive` overload per message type), `<Package>Proxy` (verifies each message and passes
its bytes to an open `onProxy` overload per message type) and, with requests,
`<Package>Client` over the runtime's socket client. What is sent comes from the lowered
model (jvm/protocol.py)."""

from __future__ import annotations

from typing import Callable, Dict, List

from ... import ir, lower
from ..jvm import names
from ..jvm.protocol import answers, requests, sent_types
from ..printer import Printer
from .names import ident


def dispatch(p: Printer, cases: List[str]) -> None:
    with p.block("override fun dispatch(type: Int, buf: ByteArray, off: Int, len: Int): Boolean {", "}"):
        with p.block("when (type) {", "}"):
            for case in cases:
                p.value(case)
            p.value("else -> return false")
        p.value("return true")


def protocol_files(model: lower.WireModel, pkg: ir.Package, header: Callable[[], Printer]) -> Dict[str, str]:
    folder = names.folder(pkg)
    base = names.schema_class(pkg)[:-len("Schema")]
    sends = sent_types(model, pkg)
    files: Dict[str, str] = {}
    receiver = "(finalFormat: Boolean = false) : dev.fastwire.Receiver(finalFormat) {"

    p = header()
    p.value(f"/** Sends the messages of package {pkg.name} into a stream (dev.fastwire.Sender). */")
    with p.block(f"open class {base}Sender(finalFormat: Boolean = false) : dev.fastwire.Sender(finalFormat) {{", "}"):
        for s in sends:
            p.value(f"fun send(value: {s.name}): Int = send({s.name}.CODEC, value)")
    files[f"{folder}/{base}Sender.kt"] = p.text()

    p = header()
    p.value(f"/** Receives the messages of package {pkg.name}: override the onReceive overloads. */")
    with p.block(f"open class {base}Receiver{receiver}", "}"):
        for s in sends:
            p.value(f"protected open fun onReceive(value: {s.name}) {{")
            p.value("}")
            p.value("")
        dispatch(p, [f"{s.name}.TYPE -> onReceive(read({s.name}.CODEC, buf, off, len))" for s in sends])
    files[f"{folder}/{base}Receiver.kt"] = p.text()

    p = header()
    p.value(f"/** Passes on the messages of package {pkg.name} without deserializing them: each is verified,")
    p.value(" * then handed as bytes to the onProxy overload of its type (the codec says which). */")
    with p.block(f"open class {base}Proxy{receiver}", "}"):
        for s in sends:
            p.value(f"protected open fun onProxy(codec: {s.name}.Codec, type: Int, buf: ByteArray, off: Int, "
                    "len: Int) {")
            p.value("}")
            p.value("")
        dispatch(p, [f"{s.name}.TYPE -> {{ verify({s.name}.CODEC, buf, off, len); "
                     f"onProxy({s.name}.CODEC, type, buf, off, len) }}" for s in sends])
    files[f"{folder}/{base}Proxy.kt"] = p.text()

    reqs = requests(pkg, sends)
    if not reqs:
        return files
    p = header()
    p.value(f"/** A client of package {pkg.name}'s protocol over TCP: typed sends and requests. */")
    with p.block(f"open class {base}Client(options: dev.fastwire.net.Options) : "
                 f"{base}Receiver(options.finalFormat), AutoCloseable {{", "}"):
        for line in ("val net: dev.fastwire.net.Client = dev.fastwire.net.Client(options, this)", "",
                     "fun connect(host: String, port: Int) = net.connect(host, port)", "",
                     "override fun close() = net.close()"):
            p.value(line)
        for s in sends:
            p.value(f"fun send(value: {s.name}): Boolean = net.send({s.name}.CODEC, value)")
        for s, resp, _ in reqs:
            assert s.id_field is not None
            p.value("")
            p.value(f"fun request(value: {s.name}, timeoutMillis: Long = 0): "
                    f"java.util.concurrent.CompletableFuture<{resp.name}> =")
            p.indent()
            p.value(f"net.request(value.{ident(s.id_field.name)}, {s.name}.CODEC, value, timeoutMillis)"
                    f".thenApply {{ it as {resp.name} }}")
            p.outdent()
        for name, verb, id_field in answers(pkg, reqs):
            p.value("")
            with p.block(f"override fun onReceive(value: {name}) {{", "}"):
                p.value(f"net.{verb}(value.{ident(id_field)}, value)")
    files[f"{folder}/{base}Client.kt"] = p.text()
    return files

"""The protocol of a package in Java: `<Package>Sender` (a typed send per message type),
`<Package>Receiver` (an `onReceive` overload per message type, dispatched by type number),
`<Package>Proxy` (verifies each message and passes its bytes to an `onProxy` overload per
message type, without deserializing) and, when the package has requests, `<Package>Client`
over the runtime's socket client (typed requests completed by their response or reject,
matched on the [id] field). What is sent comes from the lowered model (jvm/protocol.py)."""

from __future__ import annotations

from typing import Callable, Dict, List

from ... import ir, lower
from ..jvm import names
from ..jvm.protocol import Request, answers, requests, sent_types
from ..printer import Printer
from .names import ident


def protocol_files(model: lower.WireModel, pkg: ir.Package, header: Callable[[], Printer]) -> Dict[str, str]:
    folder = names.folder(pkg)
    base = names.schema_class(pkg)[:-len("Schema")]
    sends = sent_types(model, pkg)
    files: Dict[str, str] = {}

    def constructors(p: Printer, cls: str, then: bool = True) -> None:
        with p.block(f"public {cls}() {{", "}"):
            p.value("super(false);")
        p.value("")
        with p.block(f"public {cls}(boolean finalFormat) {{", "}"):
            p.value("super(finalFormat);")
        if then:
            p.value("")

    p = header()
    p.value(f"/** Sends the messages of package {pkg.name} into a stream (dev.fastwire.Sender). */")
    with p.block(f"public class {base}Sender extends dev.fastwire.Sender {{", "}"):
        constructors(p, f"{base}Sender", then=False)
        for s in sends:
            p.value("")
            with p.block(f"public int send({s.name} value) {{", "}"):
                p.value(f"return send({s.name}.CODEC, value);")
    files[f"{folder}/{base}Sender.java"] = p.text()

    p = header()
    p.value(f"/** Receives the messages of package {pkg.name}: override the onReceive overloads. */")
    with p.block(f"public class {base}Receiver extends dev.fastwire.Receiver {{", "}"):
        constructors(p, f"{base}Receiver")
        for s in sends:
            p.value(f"protected void onReceive({s.name} value) {{")
            p.value("}")
            p.value("")
        dispatch(p, [f"case {s.name}.TYPE: onReceive(read({s.name}.CODEC, buf, off, len)); return true;"
                     for s in sends])
    files[f"{folder}/{base}Receiver.java"] = p.text()

    p = header()
    for line in ("/**", f" * Passes on the messages of package {pkg.name} without deserializing them: each is",
                 " * verified (the limits of setLimits), then handed as bytes to the onProxy overload of",
                 " * its type (the codec says which), e.g. to forward it. A message that does not verify",
                 " * goes to onReceiveError.", " */"):
        p.value(line)
    with p.block(f"public class {base}Proxy extends dev.fastwire.Receiver {{", "}"):
        constructors(p, f"{base}Proxy")
        for s in sends:
            p.value(f"protected void onProxy({s.name}.Codec codec, int type, byte[] buf, int off, int len) {{")
            p.value("}")
            p.value("")
        dispatch(p, [f"case {s.name}.TYPE: verify({s.name}.CODEC, buf, off, len); "
                     f"onProxy({s.name}.CODEC, type, buf, off, len); return true;" for s in sends])
    files[f"{folder}/{base}Proxy.java"] = p.text()

    reqs = requests(pkg, sends)
    if reqs:
        p = header()
        client(p, pkg, base, sends, reqs)
        files[f"{folder}/{base}Client.java"] = p.text()
    return files


def dispatch(p: Printer, cases: List[str]) -> None:
    p.value("@Override")
    with p.block("protected boolean dispatch(int type, byte[] buf, int off, int len) {", "}"):
        with p.block("switch (type) {", "}"):
            for case in cases:
                p.value(case)
            p.value("default: return false;")


def client(p: Printer, pkg: ir.Package, base: str, sends: List[ir.StructType], reqs: List[Request]) -> None:
    for line in ("/**", f" * A client of package {pkg.name}'s protocol over TCP: typed sends, and requests whose",
                 " * futures complete with their response or fail (RequestException: rejected, timeout,",
                 " * disconnected, overflow). Override onReceive to see other messages (call super for",
                 " * responses and rejects).", " */"):
        p.value(line)
    with p.block(f"public class {base}Client extends {base}Receiver implements AutoCloseable {{", "}"):
        p.value("public final dev.fastwire.net.Client net;")
        p.value("")
        with p.block(f"public {base}Client(dev.fastwire.net.Options options) {{", "}"):
            p.value("super(options.finalFormat);")
            p.value("net = new dev.fastwire.net.Client(options, this);")
        p.value("")
        with p.block("public void connect(String host, int port) throws java.io.IOException {", "}"):
            p.value("net.connect(host, port);")
        p.value("")
        p.value("@Override")
        with p.block("public void close() {", "}"):
            p.value("net.close();")
        for s in sends:
            p.value("")
            with p.block(f"public boolean send({s.name} value) {{", "}"):
                p.value(f"return net.send({s.name}.CODEC, value);")
        future = "java.util.concurrent.CompletableFuture"
        for s, resp, _ in reqs:
            assert s.id_field is not None
            p.value("")
            with p.block(f"public {future}<{resp.name}> request({s.name} value) {{", "}"):
                p.value("return request(value, 0);")
            p.value("")
            with p.block(f"public {future}<{resp.name}> request({s.name} value, long timeoutMillis) {{", "}"):
                p.value(f"return net.request(value.{ident(s.id_field.name)}, {s.name}.CODEC, value, "
                        f"timeoutMillis).thenApply(v -> ({resp.name}) v);")
        for name, verb, id_field in answers(pkg, reqs):
            p.value("")
            p.value("@Override")
            with p.block(f"protected void onReceive({name} value) {{", "}"):
                p.value(f"net.{verb}(value.{ident(id_field)}, value);")

"""The protocol of a package in Java: `<Package>Sender` (a typed send per message type),
`<Package>Receiver` (an `onReceive` overload per message type, dispatched by type number),
`<Package>Proxy` (verifies each message and passes its bytes to an `onProxy` overload per
message type, without deserializing) and, when the package has requests, `<Package>Client`
over the runtime's socket client (typed requests completed by their response or reject,
matched on the [id] field).
What is sent comes from the lowered model (`PackageLayout.sends`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List

from ... import ir
from ..jvm.names import Lines, java_package, schema_class
from ..jvm.protocol import requests, sent_types

if TYPE_CHECKING:
    from .generator import JavaGen


def protocol_files(g: "JavaGen", pkg: ir.Package) -> Dict[str, str]:
    folder = java_package(pkg).replace(".", "/")
    base = schema_class(pkg)[:-len("Schema")]
    sends = sent_types(g.model, pkg)
    files: Dict[str, str] = {}
    u = g.unit

    out = g.header(pkg)
    out(f"/** Sends the messages of package {pkg.name} into a stream (dev.fastwire.Sender). */")
    out.open(f"public class {base}Sender extends dev.fastwire.Sender {{")
    out(f"public {base}Sender() {{", f"{u}super(false);", "}", "",
        f"public {base}Sender(boolean finalFormat) {{", f"{u}super(finalFormat);", "}")
    for s in sends:
        out("", f"public int send({s.name} value) {{", f"{u}return send({s.name}.CODEC, value);", "}")
    out.close()
    files[f"{folder}/{base}Sender.java"] = out.text()

    out = g.header(pkg)
    out(f"/** Receives the messages of package {pkg.name}: override the onReceive overloads. */")
    out.open(f"public class {base}Receiver extends dev.fastwire.Receiver {{")
    out(f"public {base}Receiver() {{", f"{u}super(false);", "}", "",
        f"public {base}Receiver(boolean finalFormat) {{", f"{u}super(finalFormat);", "}", "")
    for s in sends:
        out(f"protected void onReceive({s.name} value) {{", "}", "")
    out("@Override")
    out.open("protected boolean dispatch(int type, byte[] buf, int off, int len) {")
    out.open("switch (type) {")
    for s in sends:
        out(f"case {s.name}.TYPE: onReceive(read({s.name}.CODEC, buf, off, len)); return true;")
    out("default: return false;")
    out.close()
    out.close()
    out.close()
    files[f"{folder}/{base}Receiver.java"] = out.text()

    out = g.header(pkg)
    out("/**",
        f" * Passes on the messages of package {pkg.name} without deserializing them: each is",
        " * verified (the limits of setLimits), then handed as bytes to the onProxy overload of",
        " * its type (the codec says which), e.g. to forward it. A message that does not verify",
        " * goes to onReceiveError.",
        " */")
    out.open(f"public class {base}Proxy extends dev.fastwire.Receiver {{")
    out(f"public {base}Proxy() {{", f"{u}super(false);", "}", "",
        f"public {base}Proxy(boolean finalFormat) {{", f"{u}super(finalFormat);", "}", "")
    for s in sends:
        out(f"protected void onProxy({s.name}.Codec codec, int type, byte[] buf, int off, int len) {{", "}", "")
    out("@Override")
    out.open("protected boolean dispatch(int type, byte[] buf, int off, int len) {")
    out.open("switch (type) {")
    for s in sends:
        out(f"case {s.name}.TYPE: verify({s.name}.CODEC, buf, off, len); "
            f"onProxy({s.name}.CODEC, type, buf, off, len); return true;")
    out("default: return false;")
    out.close()
    out.close()
    out.close()
    files[f"{folder}/{base}Proxy.java"] = out.text()

    reqs = requests(pkg, sends)
    if reqs:
        files[f"{folder}/{base}Client.java"] = client_file(g, pkg, base, sends, reqs)
    return files


def client_file(g: "JavaGen", pkg: ir.Package, base: str, sends: List[ir.StructType], reqs) -> str:
    u = g.unit
    out: Lines = g.header(pkg)
    out("/**",
        f" * A client of package {pkg.name}'s protocol over TCP: typed sends, and requests whose",
        " * futures complete with their response or fail (RequestException: rejected, timeout,",
        " * disconnected, overflow). Override onReceive to see other messages (call super for",
        " * responses and rejects).",
        " */")
    out.open(f"public class {base}Client extends {base}Receiver implements AutoCloseable {{")
    out("public final dev.fastwire.net.Client net;", "")
    out.open(f"public {base}Client(dev.fastwire.net.Options options) {{")
    out("super(options.finalFormat);", "net = new dev.fastwire.net.Client(options, this);")
    out.close()
    out("", "public void connect(String host, int port) throws java.io.IOException {",
        f"{u}net.connect(host, port);", "}", "",
        "@Override", "public void close() {", f"{u}net.close();", "}")
    for s in sends:
        out("", f"public boolean send({s.name} value) {{", f"{u}return net.send({s.name}.CODEC, value);", "}")
    answers: Dict[str, str] = {}
    for s, resp, rejects in reqs:
        idf = g.ident(s.id_field.name)
        rname = resp.name
        out("", f"public java.util.concurrent.CompletableFuture<{rname}> request({s.name} value) {{",
            f"{u}return request(value, 0);", "}", "",
            f"public java.util.concurrent.CompletableFuture<{rname}> request({s.name} value, long timeoutMillis) {{",
            f"{u}return net.request(value.{idf}, {s.name}.CODEC, value, timeoutMillis).thenApply(v -> ({rname}) v);",
            "}")
        answers[rname] = "resolve"
        for r in rejects:
            answers.setdefault(r.name, "reject")
    for name, how in answers.items():
        t = pkg.type(name)
        assert isinstance(t, ir.StructType) and t.id_field is not None
        out("", "@Override", f"protected void onReceive({name} value) {{",
            f"{u}net.{how}(value.{g.ident(t.id_field.name)}, value);", "}")
    out.close()
    return out.text()

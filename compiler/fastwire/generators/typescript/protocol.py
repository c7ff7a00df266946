"""With --proto: the package's request table, Sender, Receiver and Client (and their
Final family with --final)."""

from __future__ import annotations

from ..common import naming
from ..printer import Printer
from .literals import js_string
from .names import Scope
from .prettier import WIDTH
from .structs import klass, method


def emit_protocol(g: Scope, p: Printer, mode: str) -> None:
    by = {s.qualified_name: s for s in g.pkg.structs}
    sent = [by[q] for q in g.layout.sends]
    requests = [s for s in sent if s.request and s.response is not None]
    what = f"what the {g.pkg.name} package's protocol sends"
    if requests:
        emit_requests(g, p, mode, requests)
    hooks = [(g.local(s.name), "on" + naming.pascal(s.name), s.qualified_name) for s in sent]
    for prefix, final, model in [("", "false", "Model")] + (
            [("Final", "true", "FinalModel")] if g.options.final else []):
        fmt = "final" if final == "true" else "versioned"

        def on_hooks() -> None:
            for n, hook, qualified in hooks:
                method(p, mode, f"{hook}(value: {n})", ": void", "void value;",
                       f"Called for each {qualified} received.")

        def request() -> None:
            if not requests:
                return
            p.value("/** Sends a request; resolves with its response, or rejects with an rt.RequestError. */")
            for s in requests if mode != "js" else ():
                assert s.response is not None
                p.value(f"request(q: {g.local(s.name)}, timeoutMs?: number): Promise<{g.ref_name(s.response)}>;")
            if mode != "dts":
                p.value("request(q: object, timeoutMs?: number): Promise<object> {" if mode == "ts"
                        else "request(q, timeoutMs) {")
                p.indent()
                p.value("return this.call(q, timeoutMs);")
                p.outdent()
                p.value("}")

        klass(p, mode, f"/** Sends {what} ({fmt}): its messages, or its structs when it declares none. */",
              f"{prefix}Sender extends rt.Sender", "",
              [f"super({final});"] + [f"this.register({n}, new {n}{model}());" for n, _, _ in hooks])
        klass(p, mode, f"/** Receives {what} ({fmt}): override the on<Message> hooks. */",
              f"{prefix}Receiver extends rt.Receiver", "limits?: rt.Limits",
              [f"super({final}, limits);"] + [f"this.handle(new {n}{model}(this.limits), (v) => this.{hook}(v));"
                                              for n, hook, _ in hooks], on_hooks)
        klass(p, mode, f"/** A {prefix}Sender and a {prefix}Receiver with requests matched to their responses. */",
              f"{prefix}Client extends rt.Client<{prefix}Sender, {prefix}Receiver>",
              f"receiver?: {prefix}Receiver",
              [f"super(new {prefix}Sender(), receiver ?? new {prefix}Receiver(), "
               f"{'REQUESTS' if requests else '[]'});"], request)


def emit_requests(g: Scope, p: Printer, mode: str, requests: list) -> None:
    """REQUESTS: each [request] message's response, rejects and [id] field."""
    p.value("")
    p.value(f"/** The [request] messages of {g.pkg.name}: their responses, rejects and [id]. */")
    if mode == "dts":
        p.value("export declare const REQUESTS: readonly rt.RequestSpec[];")
        return
    head = "export const REQUESTS" + (": readonly rt.RequestSpec[]" if mode == "ts" else "") + " = ["
    items = []
    for s in requests:
        rejects = ", ".join(g.ref_name(r.type) for r in s.rejects)
        ident = g.prop(s.id_field.name) if s.id_field is not None else "id"
        items.append(f"{{ request: {g.local(s.name)}, response: {g.ref_name(s.response)}, "
                     f"rejects: [{rejects}], id: {js_string(ident)} }}")
    one = head + ", ".join(items) + "];"
    if len(one) <= WIDTH:  # as prettier: an array that fits stays on its line
        p.value(one)
        return
    p.value(head)
    p.indent()
    for item in items:
        p.value(item + ",")
    p.outdent()
    p.value("];")

"""With --proto: the package's request table, Sender, Receiver and Client (and their
Final family with --final)."""

from __future__ import annotations

from ..common import naming
from ..printer import Printer
from .literals import js_string
from .names import Scope
from .prettier import WIDTH


def emit_protocol(g: Scope, p: Printer, mode: str) -> None:
    by = {s.qualified_name: s for s in g.pkg.structs}
    sent = [by[q] for q in g.layout.sends]
    requests = [s for s in sent if s.request and s.response is not None]
    families = [("", "false", "Model")]
    if g.options.final:
        families.append(("Final", "true", "FinalModel"))
    ts, dts = mode == "ts", mode == "dts"
    decl = "declare " if dts else ""
    what = f"what the {g.pkg.name} package's protocol sends"
    if requests:
        p.value("")
        p.value(f"/** The [request] messages of {g.pkg.name}: their responses, rejects and [id]. */")
        if dts:
            p.value("export declare const REQUESTS: readonly rt.RequestSpec[];")
        else:
            head = "export const REQUESTS" + (": readonly rt.RequestSpec[]" if ts else "") + " = ["
            items = []
            for s in requests:
                assert s.response is not None
                rejects = ", ".join(g.ref_name(r.type) for r in s.rejects)
                idf = s.id_field
                ident = g.prop(idf.name) if idf is not None else "id"
                items.append(f"{{ request: {g.local(s.name)}, response: {g.ref_name(s.response)}, "
                             f"rejects: [{rejects}], id: {js_string(ident)} }}")
            one = head + ", ".join(items) + "];"
            if len(one) <= WIDTH:  # as prettier: an array that fits stays on its line
                p.value(one)
            else:
                p.value(head)
                p.indent()
                for item in items:
                    p.value(item + ",")
                p.outdent()
                p.value("];")
    for prefix, final, model in families:
        fmt = "final" if final == "true" else "versioned"
        # Sender
        p.value("")
        p.value(f"/** Sends {what} ({fmt}): its messages, or its structs when it declares none. */")
        p.value(f"export {decl}class {prefix}Sender extends rt.Sender {{")
        p.indent()
        if dts:
            p.value("constructor();")
        else:
            p.value("constructor() {")
            p.indent()
            p.value(f"super({final});")
            for s in sent:
                n = g.local(s.name)
                p.value(f"this.register({n}, new {n}{model}());")
            p.outdent()
            p.value("}")
        p.outdent()
        p.value("}")
        # Receiver
        p.value("")
        p.value(f"/** Receives {what} ({fmt}): override the on<Message> hooks. */")
        p.value(f"export {decl}class {prefix}Receiver extends rt.Receiver {{")
        p.indent()
        lim = "limits?: rt.Limits" if mode != "js" else "limits"
        if dts:
            p.value(f"constructor({lim});")
        else:
            p.value(f"constructor({lim}) {{")
            p.indent()
            p.value(f"super({final}, limits);")
            for s in sent:
                n = g.local(s.name)
                hook = "on" + naming.pascal(s.name)
                p.value(f"this.handle(new {n}{model}(this.limits), (v) => this.{hook}(v));")
            p.outdent()
            p.value("}")
        for s in sent:
            n = g.local(s.name)
            hook = "on" + naming.pascal(s.name)
            p.value(f"/** Called for each {s.qualified_name} received. */")
            arg = f"value: {n}" if mode != "js" else "value"
            if dts:
                p.value(f"{hook}({arg}): void;")
            else:
                p.value(f"{hook}({arg}){': void' if ts else ''} {{")
                p.indent()
                p.value("void value;")
                p.outdent()
                p.value("}")
        p.outdent()
        p.value("}")
        # Client
        p.value("")
        p.value(f"/** A {prefix}Sender and a {prefix}Receiver with requests matched to their responses. */")
        gen = f"<{prefix}Sender, {prefix}Receiver>" if mode != "js" else ""
        p.value(f"export {decl}class {prefix}Client extends rt.Client{gen} {{")
        p.indent()
        arg = f"receiver?: {prefix}Receiver" if mode != "js" else "receiver"
        specs = "REQUESTS" if requests else "[]"
        if dts:
            p.value(f"constructor({arg});")
        else:
            p.value(f"constructor({arg}) {{")
            p.indent()
            p.value(f"super(new {prefix}Sender(), receiver ?? new {prefix}Receiver(), {specs});")
            p.outdent()
            p.value("}")
        if requests:
            p.value("/** Sends a request; resolves with its response, or rejects with an "
                    "rt.RequestError. */")
            for s in requests:
                assert s.response is not None
                if mode != "js":
                    p.value(f"request(q: {g.local(s.name)}, timeoutMs?: number): "
                            f"Promise<{g.ref_name(s.response)}>;")
            if ts:
                p.value("request(q: object, timeoutMs?: number): Promise<object> {")
            elif mode == "js":
                p.value("request(q, timeoutMs) {")
            if not dts:
                p.indent()
                p.value("return this.call(q, timeoutMs);")
                p.outdent()
                p.value("}")
        p.outdent()
        p.value("}")

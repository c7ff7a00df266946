"""With --proto: the package's request table, Sender, Receiver and Client (and their
Final family with --final)."""

from __future__ import annotations

from ..common import naming
from ..printer import Printer
from .names import Scope, declared, export, method
from .prettier import WIDTH
from .types import js_string


def emit_protocol(g: Scope, p: Printer, mode: str) -> None:
    by = {s.qualified_name: s for s in g.pkg.structs}
    sent = [by[q] for q in g.layout.sends]
    requests = [s for s in sent if s.request and s.response is not None]
    families = [("", "false", "Model")] + ([("Final", "true", "FinalModel")] if g.options.final else [])
    decl = export(mode)
    what = f"what the {g.pkg.name} package's protocol sends"
    if requests:
        p.value("")
        p.value(f"/** The [request] messages of {g.pkg.name}: their responses, rejects and [id]. */")
        head = f"{decl}const REQUESTS{declared(mode, ': readonly rt.RequestSpec[]')}"
        items = []
        for s in requests:
            assert s.response is not None
            idf = s.id_field
            items.append(f"{{ request: {g.local(s.name)}, response: {g.ref_name(s.response)}, "
                         f"rejects: [{', '.join(g.ref_name(r.type) for r in s.rejects)}], "
                         f"id: {js_string(g.prop(idf.name) if idf is not None else 'id')} }}")
        one = head + " = [" + ", ".join(items) + "];"
        if mode == "dts":
            p.value(head + ";")
        elif len(one) <= WIDTH:  # as prettier: an array that fits stays on its line
            p.value(one)
        else:
            with p.block("$head$ = [", "];", head=head):
                p.value(",\n".join(items) + ",")
    for prefix, final, model in families:
        fmt = "final" if final == "true" else "versioned"
        hooks = [(g.local(s.name), "on" + naming.pascal(s.name), s.qualified_name) for s in sent]
        p.value("")
        p.value(f"/** Sends {what} ({fmt}): its messages, or its structs when it declares none. */")
        with p.block("$head$ {", "}", head=f"{decl}class {prefix}Sender extends rt.Sender"):
            method(p, mode, "constructor()", "", "\n".join(
                [f"super({final});"] + [f"this.register({n}, new {n}{model}());" for n, _, _ in hooks]))
        p.value("")
        p.value(f"/** Receives {what} ({fmt}): override the on<Message> hooks. */")
        with p.block("$head$ {", "}", head=f"{decl}class {prefix}Receiver extends rt.Receiver"):
            method(p, mode, f"constructor(limits{declared(mode, '?: rt.Limits')})", "", "\n".join(
                [f"super({final}, limits);"]
                + [f"this.handle(new {n}{model}(this.limits), (v) => this.{hook}(v));" for n, hook, _ in hooks]))
            for n, hook, name in hooks:
                method(p, mode, f"{hook}(value{declared(mode, ': ' + n)})", ": void", "void value;",
                       f"Called for each {name} received.")
        p.value("")
        p.value(f"/** A {prefix}Sender and a {prefix}Receiver with requests matched to their responses. */")
        generic = declared(mode, f"<{prefix}Sender, {prefix}Receiver>")
        with p.block("$head$ {", "}", head=f"{decl}class {prefix}Client extends rt.Client{generic}"):
            method(p, mode, f"constructor(receiver{declared(mode, f'?: {prefix}Receiver')})", "",
                   f"super(new {prefix}Sender(), receiver ?? new {prefix}Receiver(), "
                   f"{'REQUESTS' if requests else '[]'});")
            if requests:
                p.value("/** Sends a request; resolves with its response, or rejects with an rt.RequestError. */")
                for s in requests if mode != "js" else ():
                    assert s.response is not None
                    p.value(f"request(q: {g.local(s.name)}, timeoutMs?: number): "
                            f"Promise<{g.ref_name(s.response)}>;")
                if mode != "dts":
                    method(p, mode, "request(q" + declared(mode, ": object") + ", timeoutMs"
                           + declared(mode, "?: number") + ")", ": Promise<object>", "return this.call(q, timeoutMs);")

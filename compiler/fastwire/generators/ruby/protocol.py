"""Sender, Receiver, Proxy and Client (and their Final forms) of a package's protocol."""

from __future__ import annotations

from ..common.naming import snake
from .names import Scope, class_name


def emit_protocol(g: Scope) -> None:
    families = [("", "versioned", "Model")]
    if g.options.final:
        families.append(("Final", "final", "FinalModel"))
    for prefix, fmt, model in families:
        sent = g.sent()
        g.p.blank()
        g.p.value(f"# Sends what the {g.pkg.name} package's protocol sends ({fmt}): its")
        g.p.value("# messages, or its structs when it declares none.")
        g.p.value(f"class {prefix}Sender < Fastwire::{prefix}Sender")
        g.p.indent()
        g.p.value("MODELS = {")
        g.p.indent()
        for m in sent:
            g.p.value(f"{class_name(m.name)} => {m.name}{model}.new,")
        g.p.outdent()
        g.p.value("}.freeze")
        requests = [m for m in sent if m.request and m.response is not None]
        if requests:
            g.p.value("# [request] => [its [response], its [reject]s]: what a transport's")
            g.p.value("# request() waits for.")
            g.p.value("REQUESTS = {")
            g.p.indent()
            for m in requests:
                assert m.response is not None
                rejects = ", ".join(g.type_name(r.type) for r in m.rejects)
                g.p.value(f"{class_name(m.name)} => [{g.type_name(m.response)}, [{rejects}]],")
            g.p.outdent()
            g.p.value("}.freeze")
        g.p.outdent()
        g.p.value("end")
        g.p.blank()
        g.p.value(f"# Receives what the {g.pkg.name} package's protocol sends ({fmt}):")
        g.p.value("# override the on_receive_<message> hooks.")
        g.p.value(f"class {prefix}Receiver < Fastwire::{prefix}Receiver")
        g.p.indent()
        g.p.value("HANDLERS = {")
        g.p.indent()
        for m in sent:
            g.p.value(f"{m.type_number} => [{m.name}{model}.new, :on_receive_{snake(m.name)}],")
        g.p.outdent()
        g.p.value("}.freeze")
        for m in sent:
            g.p.blank()
            g.p.value(f"# Called for each {class_name(m.name)} received.")
            g.p.value(f"def on_receive_{snake(m.name)}(value); end")
        g.p.outdent()
        g.p.value("end")
        g.p.blank()
        g.p.value(f"# Receives what the {g.pkg.name} package's protocol sends ({fmt}) without")
        g.p.value("# reading it: override on_proxy_<message>(data) to forward verified bytes.")
        g.p.value(f"class {prefix}Proxy < Fastwire::{prefix}Proxy")
        g.p.indent()
        g.p.value("HANDLERS = {")
        g.p.indent()
        for m in sent:
            g.p.value(f"{m.type_number} => [{m.name}{model}.new, :on_proxy_{snake(m.name)}],")
        g.p.outdent()
        g.p.value("}.freeze")
        for m in sent:
            g.p.blank()
            g.p.value(f"# Called with the bytes of each {class_name(m.name)} received.")
            g.p.value(f"def on_proxy_{snake(m.name)}(data); end")
        g.p.outdent()
        g.p.value("end")
        g.p.blank()
        g.p.value(f"# {prefix}Sender and {prefix}Receiver in one: send_message, receive, and")
        g.p.value("# request(q) matched to its response on the [id] field.")
        g.p.value(f"class {prefix}Client < {prefix}Receiver")
        g.p.indent()
        g.p.value("include Fastwire::ClientMethods")
        g.p.value(f"MODELS = {prefix}Sender::MODELS")
        if any(m.request and m.response is not None for m in sent):
            g.p.value(f"REQUESTS = {prefix}Sender::REQUESTS")
        g.p.outdent()
        g.p.value("end")

"""The protocol (--proto): Receiver (the versioned or the final format) dispatching the
package's messages by type number, the request ids and Request<T> helpers."""

from __future__ import annotations

from typing import Dict

from .names import Scope, field
from .structs import declare

RECEIVER = """
    // NewReceiver is a Receiver of the versioned format.
    func NewReceiver() *Receiver {
        return &Receiver{ReceiverBase: fw.ReceiverBase{Limits: fw.DefaultLimits}}
    }

    // NewFinalReceiver is a Receiver of the final format.
    func NewFinalReceiver() *Receiver {
        return &Receiver{ReceiverBase: fw.ReceiverBase{Final: true, Limits: fw.DefaultLimits}}
    }

    // Dispatch decodes one message of type typ and calls its hook; known is false for a type
    // this protocol does not know.
    func (r *Receiver) Dispatch(typ uint32, msg []byte) (known bool, err error) {"""
REQUEST = """
    // Request$N$ sends q through c and waits for its $R$ (fw.RequestAs).
    func Request$N$(c *fw.Client, q *$N$, timeout time.Duration) (*$R$, error) {
        return fw.RequestAs[$R$](c, q, timeout)
    }
"""


def emit_protocol(g: Scope) -> None:
    p, pkg = g.p, g.pkg
    sends = [n for n in g.model.package(pkg.name).sends if n.rpartition(".")[0] == pkg.name]
    local = {s.qualified_name: s for s in pkg.structs}
    answers: Dict[str, bool] = {}  # response or reject type -> is a reject
    for s in pkg.structs:
        if s.request:
            if s.response is not None:
                answers.setdefault(s.response.qualified_name, False)
            for rej in s.rejects:
                answers[rej.type.qualified_name] = True
    ids = {q: field(local[q].id_field.name) for q in sends  # type: ignore[union-attr]
           if local[q].id_field is not None}
    for q in sends:
        if local[q].request and q in ids:
            p.print(f"// FBERequestID is the [id] the answer to a {local[q].name} carries.\n"
                    f"func (m *{local[q].name}) FBERequestID() any {{ return m.{ids[q]} }}\n")
            p.print()
    names = [local[q].name for q in sends]
    p.print(f"""
        // Receiver decodes the messages of this package's protocol and calls the hook of
        // each (a nil hook skips it): {", ".join(names) or "none"}.
        // The value passed to a hook is reused for the next message of its type (answers
        // excepted): copy what is kept. Answers are offered to OnResponse first.""")
    rows = [("fw.ReceiverBase", "")] + [(f"On{n}", f"func(*{n})") for n in names]
    rows += [(f"m{i}", n) for i, n in enumerate(names) if sends[i] not in answers]
    declare(p, "Receiver", rows)
    p.print()
    p.print(RECEIVER)
    p.indent()
    if names:
        p.print("switch typ {")
        for i, q in enumerate(sends):
            n, args = local[q].name, "&r.ReceiverBase, typ, msg, v"
            p.print(f"case {g.layout(q).type_number}:")
            p.indent()
            p.print(f"v := new({n})\n*v = New{n}()" if q in answers else f"v := &r.m{i}")
            if q in answers and q in ids:
                reject = "true" if answers[q] else "false"
                p.print(f"return fw.DeliverAnswer({args}, func(v *{n}) any {{ return v.{ids[q]} }}, {reject}, r.On{n})")
            else:
                p.print(f"return fw.Deliver({args}, r.On{n})")
            p.outdent()
        p.print("}")
    else:
        p.print("_ = msg")
    p.print("return false, nil")
    p.outdent()
    p.print("}")
    p.print()
    for q in sends:
        s = local[q]
        if s.request and s.response is not None and q in ids:
            p.print(REQUEST, N=s.name, R=g.qual(s.response.qualified_name))
            p.print()

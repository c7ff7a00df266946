"""The protocol (--proto): Receiver (the versioned or the final format) dispatching the
package's messages by type number, the request ids and Request<T> helpers."""

from __future__ import annotations

from typing import Dict

from .names import Scope, field
from .structs import declare

RECEIVER = """
    // NewReceiver is a Receiver of the versioned format.
    func NewReceiver() *Receiver { return &Receiver{Limits: fw.DefaultLimits} }

    // NewFinalReceiver is a Receiver of the final format.
    func NewFinalReceiver() *Receiver { return &Receiver{Final: true, Limits: fw.DefaultLimits} }

    // IsFinal tells the format the Receiver reads.
    func (r *Receiver) IsFinal() bool { return r.Final }

    // ReceiveLimits are the limits messages are read under.
    func (r *Receiver) ReceiveLimits() *fw.Limits { return &r.Limits }

    // SetOnResponse sets OnResponse (fw.Client).
    func (r *Receiver) SetOnResponse(f func(id any, m fw.Message, reject bool) bool) { r.OnResponse = f }

    // Dispatch decodes one message of type typ and calls its hook; known is false for a type
    // this protocol does not know.
    func (r *Receiver) Dispatch(typ uint32, msg []byte) (known bool, err error) {"""
REQUEST = """
    // Request$N$ sends q through c and waits for its $R$: or fails with
    // fw.ErrRejected (a *fw.RejectedError holding the reject), fw.ErrTimeout,
    // fw.ErrDisconnected or fw.ErrOverflow. timeout 0 is the client's RequestTimeout.
    func Request$N$(c *fw.Client, q *$N$, timeout time.Duration) (*$R$, error) {
        m, err := c.Request(q, timeout)
        if err != nil {
            return nil, err
        }
        a, ok := m.(*$R$)
        if !ok {
            return nil, &fw.RejectedError{Message: m}
        }
        return a, nil
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
        // excepted): copy what is kept. OnResponse, when set, is offered every response
        // and reject first (fw.Client sets it); true means it took the message.""")
    rows = [("Final", "bool"), ("Limits", "fw.Limits"),
            ("OnResponse", "func(id any, m fw.Message, reject bool) bool")]
    rows += [(f"On{n}", f"func(*{n})") for n in names]
    rows += [(f"m{i}", n) for i, n in enumerate(names) if sends[i] not in answers]
    declare(p, "Receiver", rows)
    p.print()
    p.print(RECEIVER)
    p.indent()
    if names:
        p.print("switch typ {")
        for i, q in enumerate(sends):
            n = local[q].name
            p.print(f"case {g.layout(q).type_number}:")
            p.indent()
            p.print(f"v := new({n})\n*v = New{n}()" if q in answers else f"v := &r.m{i}")
            p.print("if err := fw.Decode(v, typ, msg, r.Final, &r.Limits); err != nil {\n"
                    "    return true, err\n}")
            if q in answers and q in ids:
                reject = "true" if answers[q] else "false"
                p.print(f"if r.OnResponse != nil && r.OnResponse(v.{ids[q]}, v, {reject}) {{\n"
                        "    return true, nil\n}")
            p.print(f"if r.On{n} != nil {{\n    r.On{n}(v)\n}}\nreturn true, nil")
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

"""The package's protocol (--proto): its Sender, Receiver, Proxy and, when it has requests
with responses, its Client."""

from __future__ import annotations

from typing import List

from ... import ir
from ...lower import PackageLayout
from .names import Scope, field_names, ident

# A ReceiverBase dispatching by type number: its doc, each message's case ({n}: its codec)
# and the virtual method per message ({t}: its type).
DISPATCHERS = {
    "Receiver": ("""
        /// Reassembles package $pkg$'s messages from any chunking and dispatches them by
        /// type number to OnReceive overloads (override them); unknown types go to
        /// OnUnknown. Malformed input raises FastwireException from Receive.""",
                 "{{ var m = Read({n}.Instance, buffer, offset, size); if (!Intercept(m)) "
                 "OnReceive(m); return true; }}", "OnReceive({t} value)"),
    "Proxy": ("""
        /// Reassembles package $pkg$'s messages and hands each one, verified but not
        /// deserialized, to the OnProxy overload of its type (the codec says which), e.g.
        /// to forward it. A message that does not verify raises FastwireException.""",
              "Verify({n}.Instance, buffer, offset, size); OnProxy({n}.Instance, type, buffer, "
              "offset, size); return true;",
              "OnProxy({n} codec, uint type, byte[] buffer, int offset, int size)"),
}


def emit(sc: Scope, layout: PackageLayout) -> None:
    p = sc.p
    sends = [sc.lookup(q) for q in layout.sends]
    p.print("""
        /// <summary>
        /// What package $pkg$'s protocol sends: each message as a root model of its own
        /// (versioned, or final with a FinalSender); a stream is models one after another.
        /// </summary>
        public class Sender : global::Fastwire.SenderBase
        {
            public Sender(global::Fastwire.ISink sink, bool final = false) : base(sink, final) { }
    """, pkg=sc.pkg.name)
    for s in sends:
        p.value(f"    public bool Send({sc.type_name(s.qualified_name)} value) "
                f"{{ return SendValue({ident(s.name)}.Instance, value); }}")
    p.print("}")
    for cls, (doc, case, hook) in DISPATCHERS.items():
        p.blank()
        p.print("/// <summary>")
        p.print(doc, pkg=sc.pkg.name)
        p.print("""
            /// </summary>
            public class $cls$ : global::Fastwire.ReceiverBase
            {
                public $cls$(bool final = false, global::Fastwire.Limits limits = null) : base(final, limits) { }

                protected override bool Dispatch(uint type, byte[] buffer, int offset, int size)
                {
                    switch (type)
                    {
        """, cls=cls)
        p.indent()
        for s in sends:
            number = sc.model.struct(s.qualified_name).type_number
            p.value(f"        case {number}U: " + case.format(n=ident(s.name)))
        p.print("""
                    default: return false;
                }
            }
        """)
        for s in sends:
            p.blank()
            p.value(f"protected virtual void {hook.format(n=ident(s.name), t=sc.type_name(s.qualified_name))} {{ }}")
        p.outdent()
        p.print("}")
    emit_client(sc, sends)


def emit_client(sc: Scope, sends: List[ir.StructType]) -> None:
    """The Client: a Receiver that matches responses and rejects to its requests."""
    p = sc.p
    sent = {s.qualified_name for s in sends}
    requests = [s for s in sends if s.request and s.response is not None
                and s.response.qualified_name in sent and s.id_field is not None]
    if not requests:
        return
    answers: List[ir.StructType] = []
    p.blank()
    p.print("""
        /// <summary>
        /// A Receiver that answers Request(): responses and rejects are matched to their
        /// request by [id] (other messages go to the OnReceive hooks). Attach a sink (a
        /// transport client does) to send.
        /// </summary>
        public class Client : Receiver, global::Fastwire.IRequester
        {
            readonly global::Fastwire.RequestTracker requests = new global::Fastwire.RequestTracker();
            public global::Fastwire.RequestTracker Requests { get { return requests; } }
            public Sender Sender { get; private set; }

            public Client(bool final = false, global::Fastwire.Limits limits = null) : base(final, limits) { }

            public void Attach(global::Fastwire.ISink sink) { Sender = new Sender(sink, Final); }
    """)
    p.indent()
    for q in requests:
        assert q.response is not None and q.id_field is not None
        resp = sc.lookup(q.response.qualified_name)
        rejects = [sc.lookup(r.type.qualified_name) for r in q.rejects if r.type.qualified_name in sent]
        for t in [resp, *rejects]:
            if t.id_field is not None and t not in answers:
                answers.append(t)
        p.blank()
        p.print("""
            /// <summary>Sends the request; the task completes with its response, or fails
            /// with a RequestException.</summary>
            public global::System.Threading.Tasks.Task<$resp$> Request(
                $req$ request, global::System.TimeSpan? timeout = null)
            {
                var sender = Sender;
                if (sender == null)
                    throw new global::Fastwire.RequestException(
                        global::Fastwire.RequestErrorKind.Disconnected, "not connected");
                return requests.Start<$resp$>(request.$qid$,
                    new global::System.Type[] { $types$ }, () => sender.Send(request), timeout);
            }
        """, resp=sc.type_name(resp.qualified_name), req=sc.type_name(q.qualified_name),
                qid=field_names(q)[q.id_field.name],
                types=", ".join(f"typeof({sc.type_name(r.qualified_name)})" for r in rejects))
    intercept = ["var type = message.GetType();"]
    for t in answers:
        assert t.id_field is not None
        tn = sc.type_name(t.qualified_name)
        intercept.append(f"if (type == typeof({tn})) return requests.Complete((({tn})message)."
                         f"{field_names(t)[t.id_field.name]}, message);")
    sc.method("protected override bool Intercept(object message)", intercept + ["return false;"])
    p.outdent()
    p.print("}")

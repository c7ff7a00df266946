"""The files both languages write, each from the language's templates (a Files: java/files.py,
kotlin/files.py): a file per enum or flags type and per struct, the package's schema class
and, with --proto, its protocol: `<Package>Sender`, `<Package>Receiver` (an onReceive
overload per message type, dispatched by type number), `<Package>Proxy` (verifies each
message and hands its bytes to an onProxy overload, without deserializing) and, when the
package has requests, `<Package>Client` (requests completed by their response or reject,
matched on the [id] field). What a package sends comes from the lowered model."""

from __future__ import annotations

import functools
from typing import Callable, Dict, List, Tuple, cast

from ... import __version__, ir, lower
from ..common.docs import line_comments
from ..options import Options
from ..printer import Printer
from . import names
from .syntax import emit

# A request, its response and the rejects its sender receives.
Request = Tuple[ir.StructType, ir.TypeRef, List[ir.TypeRef]]


def fill(template: str, **v: str) -> str:
    """A template's `$name$`s replaced now (an item of a list another template prints)."""
    for k, x in v.items():
        template = template.replace(f"${k}$", x)
    return template


class Files:
    """A language's templates and the parts of its files it renders itself."""

    language = ""  # line_comments' language; the files' extension
    ext = ""
    header = ""  # $pkg$ $version$ $package$
    enum_head = ""  # an enum or flags class to its constants ($n$ $kind$ $base$)
    enum_levels = 1  # the blocks the head opens
    alias = ""  # a constant of another one's value ($x$ $y$) or of its own ($raw$ $label$)
    constant = ""
    enum_tail = ""  # the rest ($named$ $B$ $flags$ $text$), its flags' methods, its toString
    flags = ""
    flags_text = ""
    enum_text = ""
    protocol: Dict[str, str] = {}  # by file (Sender, ...) and by item (send, receive, ...)

    def quote(self, text: str) -> str: raise NotImplementedError
    def ident(self, name: str) -> str: raise NotImplementedError
    def struct(self, p: Printer, model: lower.WireModel, pkg: ir.Package, s: ir.StructType) -> None:
        raise NotImplementedError
    def schema(self, p: Printer, pkg: ir.Package) -> None: raise NotImplementedError

    def doc(self, text: str | None) -> str:
        return "\n".join(line_comments(text, "//", language=self.language))

    def printer(self, pkg: ir.Package, options: Options) -> Printer:
        p = Printer(indent=options.indent if options.indent > 0 else 4, tabs=options.tabs)
        p.print(self.header, pkg=pkg.name, version=__version__, package=names.java_package(pkg))
        return p

    def generate(self, model: lower.WireModel, options: Options) -> Dict[str, str]:
        files: Dict[str, str] = {}
        for pkg in model.schema.packages:
            where = names.folder(pkg)
            for t in pkg.types:
                p = self.printer(pkg, options)
                if isinstance(t, ir.EnumType):
                    self.enum(p, t)
                else:
                    assert isinstance(t, ir.StructType)
                    self.struct(p, model, pkg, t)
                files[f"{where}/{t.name}.{self.ext}"] = p.text()
            p = self.printer(pkg, options)
            self.schema(p, pkg)
            files[f"{where}/{names.schema_class(pkg)}.{self.ext}"] = p.text()
            if options.proto:
                files.update(self.protocol_files(model, pkg, functools.partial(self.printer, pkg, options)))
        return files

    def enum(self, p: Printer, t: ir.EnumType) -> None:
        """A class over the raw value (`long value`), a constant per name; `of(long)` returns
        the constant or a new instance, so values without a name survive a round trip."""
        n = t.name
        emit(p, self.enum_head, doc=self.doc(t.doc), n=n, kind=t.kind, base=t.base)
        p.level += self.enum_levels
        canonical: Dict[int, str] = {}
        for v in t.values:
            x = self.ident(v.name)
            if v.value in canonical:
                p.value(fill(self.alias, n=n, x=x, y=self.ident(canonical[v.value])))
            else:
                canonical[v.value] = v.name
                p.value(fill(self.constant, n=n, x=x, raw=names.raw_literal(v.value, t.base),
                             label=self.quote(v.name)))
        p.level -= self.enum_levels
        flags = t.kind == "flags"
        emit(p, self.enum_tail, n=n, named=", ".join(self.ident(canonical[v]) for v in canonical),
             B=t.base.upper(), flags=fill(self.flags, n=n) if flags else "",
             text=fill(self.flags_text if flags else self.enum_text, n=n))

    def protocol_files(self, model: lower.WireModel, pkg: ir.Package,
                       header: Callable[[], Printer]) -> Dict[str, str]:
        base = names.schema_class(pkg)[:-len("Schema")]
        sends = [cast(ir.StructType, pkg.type(q.partition(".")[2])) for q in model.package(pkg.name).sends]
        reqs = requests(sends)
        t = self.protocol

        def each(key: str, items: List[Dict[str, str]]) -> str:
            return "\n".join(fill(t[key], **item) for item in items)

        ss = [dict(s=s.name) for s in sends]
        rs = [dict(s=s.name, r=resp.name, id=self.ident(s.id_field.name)) for s, resp, _ in reqs
              if s.id_field is not None]
        v = dict(pkg=pkg.name, b=base, **{k: each(k, ss) for k in ("send", "receive", "case", "proxy",
                                                                    "pcase", "csend")},
                 request=each("request", rs), answer=each("answer", answers(pkg, reqs, self.ident)))
        files = {}
        for kind in ("Sender", "Receiver", "Proxy", "Client")[:4 if reqs else 3]:
            p = header()
            emit(p, t[kind], **v)
            files[f"{names.folder(pkg)}/{base}{kind}.{self.ext}"] = p.text()
        return files


def requests(sends: List[ir.StructType]) -> List[Request]:
    """(request, response, [rejects]) of the package's requests whose answers it receives."""
    names = {s.qualified_name for s in sends}
    out = []
    for s in sends:
        if s.request and s.response is not None and s.id_field is not None \
                and s.response.qualified_name in names:
            out.append((s, s.response, [r.type for r in s.rejects if r.type.qualified_name in names]))
    return out


def answers(pkg: ir.Package, reqs: List[Request], ident: Callable[[str], str]) -> List[Dict[str, str]]:
    """What a client awaits: a response's or reject's name ($a$), `resolve` or `reject`
    ($verb$) and its [id] field ($id$)."""
    how: Dict[str, str] = {}
    for _, resp, rejects in reqs:
        how[resp.name] = "resolve"
        for r in rejects:
            how.setdefault(r.name, "reject")
    out = []
    for name, verb in how.items():
        t = pkg.type(name)
        assert isinstance(t, ir.StructType) and t.id_field is not None
        out.append(dict(a=name, verb=verb, id=ident(t.id_field.name)))
    return out

"""C# names and string literals, and `Scope`: what every module renders with."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ... import ir, lower
from ..common import docs, naming
from ..options import Options
from ..printer import Printer

RT = "global::Fastwire"
INLINE = ("global::System.Runtime.CompilerServices.MethodImpl("
          "global::System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)")
# Members of the generated classes a field must not be named as.
MEMBERS = {"Equals", "GetHashCode", "CompareTo", "ToString", "ToJson", "FromJson", "GetType",
           "MemberwiseClone", "Finalize", "ReferenceEquals"}
_ESCAPES = {"\\": "\\\\", '"': '\\"'}


def ident(name: str) -> str:
    return naming.ident("csharp", name)


def string(text: str) -> str:
    """A C# string literal (printable ASCII, else UTF-16 units as `\\uXXXX`)."""
    out = []
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        c = data[i] | data[i + 1] << 8
        ch = chr(c) if c < 0xD800 or c > 0xDFFF else ""
        out.append(_ESCAPES.get(ch) or (ch if 0x20 <= c < 0x7F else f"\\u{c:04X}"))
    return '"' + "".join(out) + '"'


def field_names(s: ir.StructType) -> Dict[str, str]:
    """Each field's member name: its identifier, `_` appended while it clashes."""
    taken = {s.name}
    out: Dict[str, str] = {}
    for f in s.all_fields:
        n = ident(f.name)
        while n in taken or n in MEMBERS:
            n += "_"
        out[f.name] = n
        taken.add(n)
    return out


class Scope:
    """One package's rendering: names resolve from here, code goes to `p`."""

    def __init__(self, model: lower.WireModel, pkg: ir.Package, options: Options) -> None:
        self.model = model
        self.schema = model.schema
        self.pkg = pkg
        self.options = options
        self.p = Printer(indent=options.indent or 4, tabs=options.tabs)
        self.fast_n = 0  # the fast paths' local variables: stem + number
        # Worked out once: namespaces, types.parts, versioned.inline_check, types.spelled.
        self.spaces: Dict[str, str] = {}
        self.parts: Dict[object, Tuple[str, str, str]] = {}
        self.inline: Dict[str, Optional[int]] = {}
        self.spelled: Dict[Tuple[str, bool], bool] = {}

    def namespace(self, package: str) -> str:
        got = self.spaces.get(package)
        if got is None:
            p = self.schema.package(package)
            parts = (p.domain.split(".") if p.domain else []) + [p.name]
            got = self.spaces[package] = ".".join(ident(x) for x in parts)
        return got

    def _in(self, qualified: str, middle: str) -> str:
        package, _, name = qualified.partition(".")
        return f"global::{self.namespace(package)}.{middle}{ident(name)}"

    def type_name(self, qualified: str) -> str:
        return self._in(qualified, "")

    def codec_name(self, qualified: str) -> str:
        return self._in(qualified, "Fbe.")

    def enum_codec(self, qualified: str) -> str:
        return self._in(qualified, "Fbe.FbeEnums.")

    def lookup(self, qualified: str) -> ir.StructType:
        package, _, name = qualified.partition(".")
        t = self.schema.package(package).type(name)
        assert isinstance(t, ir.StructType)
        return t

    def fast_var(self, stem: str) -> str:
        self.fast_n += 1
        return f"{stem}{self.fast_n}"

    def doc(self, text: str | None) -> None:
        if text:
            for line in docs.comment_lines("csharp", text.strip()):
                self.p.value("/// " + line.strip().replace("&", "&amp;").replace("<", "&lt;"))

    def method(self, signature: str, lines: List[str], inline: bool = False) -> None:
        """A method whose body is `lines` (values, printed as they are)."""
        p = self.p
        p.blank()
        if inline:
            p.value(f"[{INLINE}]")
        p.value(signature)
        p.value("{")
        p.indent()
        for line in lines:
            p.value(line)
        p.outdent()
        p.value("}")


def lines(template: str, **variables: object) -> List[str]:
    """A Printer template as statement lines (4 spaces a level), blank lines dropped."""
    p = Printer()
    p.print(template, **variables)
    return [x for x in p.lines if x]

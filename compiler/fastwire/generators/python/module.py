"""The Python generator: one module per package, on the `fastwire_runtime` package.

    fastwire compile schemas/proto.fbe --lang python --final --json --proto -o gen/
    fastwire --python --input=schemas/proto.fbe --output=gen/          # fbec's flags

Each package becomes `<package>.py` (the root package and every package it imports, so
the output is complete); modules import each other as siblings, either inside a Python
package or side by side on sys.path. A module holds:

- enums as `enum.IntEnum`, flags as `enum.IntFlag`;
- one class per struct or message: `__slots__`, annotations, `__init__` with the schema's
  defaults (utc / uuid1 / uuid4 and mutable values computed per call), `__eq__`,
  `__hash__` and `__lt__` over the `[key]` fields (`__eq__` over every field without keys), `__repr__` printing as
  the C++ output does; `to_json()` / `from_json()` with --json;
- `<Struct>Model` (versioned) and, with --final, `<Struct>FinalModel`;
- with --proto: `Sender`, `Receiver` (and `FinalSender`, `FinalReceiver` with --final).

The hot paths are generated as straight-line code over precompiled `struct.Struct`
layouts. A versioned reader unpacks a body's header and slots (and the length of the
string writers put right after it) at once and checks the usual case in one condition,
leaving older versions and errors to the runtime's checked slow path; a struct of
scalars and strings is written with one pack. The final format packs runs of
fixed-size fields together with the length of the string that follows. Optionals and
collections go through runtime helpers. Everything generic (collections, JSON,
printing, reading older struct versions) lives in the runtime. See python/README.md for
the API.
"""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Set, Tuple

from ... import __version__, ir, lower
from ..common import docs, naming
from ..options import Options
from ..printer import Printer

# Versioned slot formats (struct module letters) of the primitives.
_FMT = {
    "bool": "?", "byte": "B", "char": "B", "wchar": "I", "int8": "b", "uint8": "B",
    "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q",
    "float": "f", "double": "d", "decimal": "16s", "timestamp": "Q", "uuid": "16s",
    "string": "I", "bytes": "I",
}
_CODEC = {
    "bool": "BOOL", "byte": "BYTE", "char": "CHAR", "wchar": "WCHAR", "int8": "INT8",
    "uint8": "UINT8", "int16": "INT16", "uint16": "UINT16", "int32": "INT32",
    "uint32": "UINT32", "int64": "INT64", "uint64": "UINT64", "float": "FLOAT",
    "double": "DOUBLE", "decimal": "DECIMAL", "timestamp": "TIMESTAMP", "uuid": "UUID_",
    "string": "STRING", "bytes": "BYTES",
}
_PY_TYPE = {
    "bool": "bool", "float": "float", "double": "float", "string": "str", "bytes": "bytes",
    "decimal": "Decimal", "uuid": "UUID",
}
_ZERO = {"bool": "False", "float": "0.0", "double": "0.0", "string": '""', "bytes": 'b""',
         "decimal": 'Decimal("0")', "uuid": "_rt.NIL_UUID"}
_CONTAINER_CODEC = {"vector": "vector", "list": "list_", "set": "set_", "map": "map_",
                    "hash": "hash_"}
# Field kinds a struct can be written at once with (see emit_versioned).
_FLAT = ("number", "enum", "uuid", "decimal", "string", "bytes")
# Attribute names the generated classes use themselves.
_CLASS_NAMES = {"self", "to_json", "from_json"}


def generate(schema: ir.Schema, options: Options) -> Dict[str, str]:
    if options.indent <= 0 and not options.tabs:  # Python needs indentation: 0 means 4
        options = Options(final=options.final, json=options.json, proto=options.proto,
                          indent=4, tabs=False)
    model = lower.lower(schema)
    return {naming.file_name("python", p.name, "module"): _Module(schema, p, options,
                                                                  model).render()
            for p in schema.packages}


def _pyname(name: str, taken: Set[str] = frozenset()) -> str:  # type: ignore[assignment]
    """A schema identifier as a Python identifier: keywords and clashes get a trailing _,
    and a leading __ (which Python would mangle inside a class) becomes f__."""
    if name.startswith("__") and not name.endswith("__"):
        name = "f" + name
    name = naming.ident("python", name)
    while name in taken:
        name = naming.ident("python", name + "_")
    return name


def _member_name(name: str) -> str:
    """An enum member name Python's enum module accepts."""
    if name.startswith("__") and not name.endswith("__"):
        return "m" + name
    if (name in naming.RESERVED["python"] or name in ("mro", "name", "value")
            or (len(name) > 1 and name[0] == "_" and name[-1] == "_")):
        return name + "_"
    return name


_snake = naming.snake
_docstring = docs.python_docstring


def _pads(parts: List[str]) -> str:
    """Struct format parts joined, consecutive pad bytes ("4x", "8x") merged ("12x")."""
    out: List[str] = []
    for part in parts:
        if part.endswith("x") and out and out[-1].endswith("x"):
            out[-1] = f"{int(out[-1][:-1]) + int(part[:-1])}x"
        else:
            out.append(part)
    return "".join(out)


def _letters(w: lower.WireType) -> str:
    """The struct-module format of a versioned slot of wire type `w` (the type table:
    sizes and offsets come from the lowered model, never from here)."""
    if w.kind in ("scalar", "enum", "flags"):
        assert w.scalar is not None
        return _FMT[w.scalar]
    if w.kind in ("decimal", "uuid", "timestamp"):
        return _FMT[w.kind]
    if w.kind == "optional":
        return "BI"
    if w.kind == "array":
        assert w.element is not None and w.length is not None
        return _letters(w.element) * w.length
    return "I"  # an offset: string, bytes, struct, sequence, map


class _Module:
    def __init__(self, schema: ir.Schema, package: ir.Package, options: Options,
                 model: Optional[lower.WireModel] = None):
        self.schema = schema
        self.pkg = package
        self.options = options
        self.model = model or lower.lower(schema)  # the wire layout: read, never computed
        self.p = Printer(indent=options.indent, tabs=options.tabs)
        self.run_layouts: List[Tuple[Optional[lower.FinalRun], int]] = []
        local = {t.name for t in package.types}
        # Python names of the standard types, unless the package declares the same names.
        self.decimal = "_Decimal" if "Decimal" in local else "Decimal"
        self.uuid = "_UUID" if "UUID" in local else "UUID"
        self.optional = "_Optional" if "Optional" in local else "Optional"
        self.uses: Set[str] = set()

    # ---- names -------------------------------------------------------------------------
    def type_name(self, ref: ir.TypeRef) -> str:
        """The Python expression naming an enum, flags or struct class."""
        name = _pyname(ref.name)
        return name if ref.package == self.pkg.name else f"_{ref.package}.{name}"

    def _qualify(self, ref: ir.TypeRef, prefix: str) -> str:
        name = f"{prefix}{ref.name}"
        return name if ref.package == self.pkg.name else f"_{ref.package}.{name}"

    def enum_codec(self, ref: ir.TypeRef) -> str:
        return self._qualify(ref, "_E_")

    def struct_codec(self, ref: ir.TypeRef) -> str:
        return self._qualify(ref, "_S_")

    def struct_fn(self, ref: ir.TypeRef, fn: str) -> str:
        return self._qualify(ref, f"_{fn}_")

    @staticmethod
    def field_attr(field: ir.Field) -> str:
        return _pyname(field.name, _CLASS_NAMES)

    def plain_codec(self, ref: ir.TypeRef) -> str:
        if ref.kind == "primitive":
            return f"_rt.{_CODEC[ref.name]}"
        if ref.kind in ("enum", "flags"):
            return self.enum_codec(ref)
        return self.struct_codec(ref)

    def codec_expr(self, t: ir.FieldType) -> str:
        """A runtime expression building the codec of a field type."""
        elem = self.plain_codec(t.value)
        if t.optional:
            elem = f"_rt.optional({elem})"
        if t.container is None:
            return elem
        if t.container == "array":
            return f"_rt.array({elem}, {t.size})"
        if t.container in ("map", "hash"):
            assert t.key is not None
            return f"_rt.{_CONTAINER_CODEC[t.container]}({self.plain_codec(t.key)}, {elem})"
        return f"_rt.{_CONTAINER_CODEC[t.container]}({elem})"

    def field_codec(self, s: ir.StructType, f: ir.Field) -> str:
        """The name of the codec a field uses: a shared one, or the struct's own."""
        t = f.type
        if t.container is None and not t.optional:
            return self.plain_codec(t.value)
        return f"_F_{s.name}_{self.field_attr(f)}"

    # ---- annotations and defaults ------------------------------------------------------
    def plain_annotation(self, ref: ir.TypeRef) -> str:
        if ref.kind == "primitive":
            py = _PY_TYPE.get(ref.name, "int")
            if py == "Decimal":
                self.uses.add("decimal")
                return self.decimal
            if py == "UUID":
                self.uses.add("uuid")
                return self.uuid
            return py
        return self.type_name(ref)

    def annotation(self, t: ir.FieldType) -> str:
        v = self.plain_annotation(t.value)
        if t.optional:
            self.uses.add("optional")
            v = f"{self.optional}[{v}]"
        if t.container in ("array", "vector", "list"):
            return f"list[{v}]"
        if t.container == "set":
            return f"set[{v}]"
        if t.container in ("map", "hash"):
            assert t.key is not None
            return f"dict[{self.plain_annotation(t.key)}, {v}]"
        return v

    def zero(self, ref: ir.TypeRef) -> Tuple[str, bool]:
        """(expression, computed) for a plain type's value without a declared default;
        computed means the expression must be evaluated per object."""
        if ref.kind == "primitive":
            if ref.name == "decimal":
                self.uses.add("decimal")
                return f'{self.decimal}("0")', False
            return _ZERO.get(ref.name, "0"), False
        if ref.kind == "struct":
            return f"{self.type_name(ref)}()", True
        t = self.schema.lookup(ref)
        assert isinstance(t, ir.EnumType)
        for v in t.values:
            if v.value == 0:
                return f"{self.type_name(ref)}.{_member_name(v.name)}", False
        if ref.kind == "flags" and t.values:
            return f"{self.type_name(ref)}(0)", False
        return "0", False

    def literal(self, f: ir.Field) -> Tuple[str, str]:
        """(kind, expression) of a field's declared default: kind is 'literal',
        'computed' (evaluated per object) or 'null'."""
        d = f.default
        ref = f.type.value
        assert d is not None
        if d.kind == "null":
            return "null", "None"
        if d.kind == "bool":
            return "literal", "True" if d.value else "False"
        if d.kind in ("integer", "float") and ref.kind == "primitive":
            if ref.name in ("float", "double"):
                return "literal", repr(float(d.value))  # type: ignore[arg-type]
            if ref.name == "decimal":
                self.uses.add("decimal")
                return "literal", f'{self.decimal}("{d.value}")'
            return "literal", str(int(d.value))  # type: ignore[arg-type]
        if d.kind == "decimal":
            self.uses.add("decimal")
            return "literal", f'{self.decimal}("{d.value}")'
        if d.kind == "string":
            return "literal", repr(d.value)
        if d.kind == "timestamp":
            return "literal", str(d.value)
        if d.kind == "utc":
            return "computed", "_rt.utc()"
        if d.kind == "uuid":
            if d.value == "00000000-0000-0000-0000-000000000000":
                return "literal", "_rt.NIL_UUID"
            self.uses.add("uuid")
            return "literal", f'{self.uuid}("{d.value}")'
        if d.kind in ("uuid1", "uuid4"):
            return "computed", f"_rt.{d.kind}()"
        if d.kind in ("enum", "flags"):
            cls = self.type_name(ref)
            if d.names:
                return "literal", " | ".join(f"{cls}.{_member_name(n)}" for n in d.names)
            return "literal", f"{cls}({d.value})"
        raise AssertionError(f"default kind {d.kind}")

    def default(self, f: ir.Field) -> Tuple[str, str, str]:
        """(parameter annotation, parameter default, value expression) for __init__. The
        value expression uses the parameter `name`; computed defaults are made per call
        (the parameter then defaults to None, or to _rt.DEFAULT where None means null)."""
        t = f.type
        ann = self.annotation(t)
        name = self.field_attr(f)
        if t.container is not None:
            if t.container == "array":
                elem, computed = ("None", False) if t.optional else self.zero(t.value)
                value = (f"[{elem} for _ in range({t.size})]" if computed
                         else f"[{elem}] * {t.size}")
            else:
                value = {"set": "set()", "map": "{}", "hash": "{}"}.get(t.container, "[]")
            self.uses.add("optional")
            return f"{self.optional}[{ann}]", "None", f"{value} if {name} is None else {name}"
        if t.optional:
            if f.default is None:
                return ann, "None", name
            kind, expr = self.literal(f)
            if kind == "computed":
                return ann, "_rt.DEFAULT", f"{expr} if {name} is _rt.DEFAULT else {name}"
            return ann, expr, name
        if f.default is not None:
            kind, expr = self.literal(f)
        else:
            expr, computed = self.zero(t.value)
            kind = "computed" if computed else "literal"
        if kind == "computed":
            self.uses.add("optional")
            return f"{self.optional}[{ann}]", "None", f"{expr} if {name} is None else {name}"
        return ann, expr, name

    # ---- module ------------------------------------------------------------------------
    def render(self) -> str:
        body = Printer(indent=self.options.indent, tabs=self.options.tabs)
        self.p = body
        structs = self.ordered_structs()
        for t in self.pkg.types:
            if isinstance(t, ir.EnumType):
                self.emit_enum(t)
        for s in structs:
            self.emit_class(s)
        self.emit_codecs(structs)
        for s in structs:
            self.emit_struct_codec(s)
        self.emit_models(structs)
        if self.options.proto:
            self.emit_protocol()
        head = Printer(indent=self.options.indent, tabs=self.options.tabs)
        self.p = head
        self.emit_header()
        return head.text() + "\n" + body.text()

    def ordered_structs(self) -> List[ir.StructType]:
        """Structs in the model's emission order (each after the local structs it refers
        to): the runtime sizes a struct from its fields' codecs."""
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).emission_order]

    def emit_header(self) -> None:
        p = self.p
        source = os.path.basename(self.pkg.path)
        p.value(f"# Generated by fastwire {__version__} from {source} (package {self.pkg.name}). "
                "Do not edit.")
        doc = _docstring(self.pkg.doc) or _docstring(f"The {self.pkg.name} package.")
        p.value(doc)
        p.blank()
        p.print("from __future__ import annotations")
        p.blank()
        if any(isinstance(t, ir.EnumType) for t in self.pkg.types):
            p.print("import enum")
        if "decimal" in self.uses:
            p.print("from decimal import Decimal" + (" as _Decimal" if self.decimal != "Decimal"
                                                     else ""))
        if "optional" in self.uses:
            p.print("from typing import Optional" + (" as _Optional"
                                                     if self.optional != "Optional" else ""))
        if "uuid" in self.uses:
            p.print("from uuid import UUID" + (" as _UUID" if self.uuid != "UUID" else ""))
        p.blank()
        p.print("import fastwire_runtime as _rt")
        if self.pkg.imports:
            p.blank()
            p.print("if __package__:")
            p.indent()
            for name in self.pkg.imports:
                p.value(f"from . import {name} as _{name}")
            p.outdent()
            p.print("else:  # the generated modules side by side on sys.path")
            p.indent()
            for name in self.pkg.imports:
                p.value(f"import {name} as _{name}")
            p.outdent()

    def gap(self) -> None:
        """Two blank lines, as between top-level definitions."""
        self.p.blank()
        self.p.print("")

    # ---- enums -------------------------------------------------------------------------
    def emit_enum(self, e: ir.EnumType) -> None:
        p = self.p
        self.gap()
        base = "IntFlag" if e.kind == "flags" else "IntEnum"
        p.value(f"class {_pyname(e.name)}(enum.{base}):")
        p.indent()
        doc = _docstring(e.doc)
        if doc:
            p.value(doc)
            if e.values:
                p.blank()
        for v in e.values:
            if v.doc:
                p.value(f"# {v.doc.strip()}")
            note = "  # deprecated" if v.deprecated else ""
            p.value(f"{_member_name(v.name)} = {v.value}{note}")
        if not e.values and not doc:
            p.print("pass")
        p.outdent()

    # ---- classes -----------------------------------------------------------------------
    def emit_class(self, s: ir.StructType) -> None:
        p = self.p
        name = _pyname(s.name)
        base = f"({self.type_name(s.base)})" if s.base else ""
        own = s.fields
        self.gap()
        p.value(f"class {name}{base}:")
        p.indent()
        doc = _docstring(s.doc)
        if doc:
            p.value(doc)
            p.blank()
        slots = ", ".join(f'"{self.field_attr(f)}"' for f in own)
        if len(slots) > 90:  # one a line
            slots = "\n    " + ",\n    ".join(f'"{self.field_attr(f)}"' for f in own) + ",\n"
        p.value(f"__slots__ = ({slots}{',' if len(own) == 1 else ''})")
        defaults = [(f, *self.default(f)) for f in s.all_fields]
        if own:
            p.blank()
            for f, _ann, _, _ in defaults:
                if f not in own:
                    continue
                if f.doc:
                    p.value(f"# {f.doc.strip()}")
                notes = [n for n, on in (("[key]", f.key and not f.id), ("[id]", f.id),
                                         ("[hidden]", f.hidden),
                                         ("[deprecated]", f.deprecated)) if on]
                note = f"  # {' '.join(notes)}" if notes else ""
                p.value(f"{self.field_attr(f)}: {self.annotation(f.type)}{note}")
        p.blank()
        if s.all_fields:
            immutable = f"{self.uuid}("  # a call in a default, harmless: UUIDs are immutable
            params = "\n".join(f"{self.field_attr(f)}: {ann} = {param},"
                               + ("  # noqa: B008" if param.startswith(immutable) else "")
                               for f, ann, param, _ in defaults)
            sets = "\n".join(f"self.{self.field_attr(f)} = {value}"
                             for f, _, _, value in defaults)
            p.print("""
                def __init__(
                    self,
                    $params$
                ) -> None:
                    $sets$
            """, params=params, sets=sets)
        else:
            p.print("""
                def __init__(self) -> None:
                    pass
            """)
        # One rule (docs/schema-language.md): equality, hashing and ordering by the [key]
        # fields when there are any, else equality over every field.
        attrs = [self.field_attr(f) for f in (s.key_fields or s.all_fields)]
        if attrs:
            terms = "\n    and ".join(f"self.{a} == other.{a}" for a in attrs)
            same = f"return (\n    {terms}  # type: ignore[attr-defined]\n)"
        else:
            same = "return True"
        p.blank()
        p.print("""
            def __eq__(self, other: object) -> bool:
                if other.__class__ is not self.__class__:
                    return NotImplemented
                $same$
        """, same=same)
        keys = [self.field_attr(f) for f in s.key_fields]
        p.blank()
        if keys:
            mine = ", ".join(f"self.{k}" for k in keys)
            theirs = ", ".join(f"other.{k}" for k in keys)
            if len(keys) > 1:
                mine, theirs = f"({mine})", f"({theirs})"
            p.print("""
                def __hash__(self) -> int:
                    return hash($mine$)

                def __lt__(self, other: $cls$) -> bool:
                    if other.__class__ is not self.__class__:
                        return NotImplemented
                    return $mine$ < $theirs$
            """, mine=mine, theirs=theirs, cls=name)
        else:
            p.print("__hash__ = None  # type: ignore[assignment]  # no [key] fields")
        p.blank()
        p.print("""
            def __repr__(self) -> str:
                return _S_$name$.text(self)

            __str__ = __repr__
        """, name=s.name)
        if self.options.json:
            p.blank()
            p.print("""
                def to_json(self) -> str:
                    \"\"\"This value as compact JSON text.\"\"\"
                    return _S_$name$.dump_json(self)

                @classmethod
                def from_json(cls, text: str | bytes) -> $cls$:
                    \"\"\"A value from JSON text; raises fastwire_runtime.DecodeError.\"\"\"
                    return _S_$name$.from_json(text)
            """, name=s.name, cls=name)
        p.outdent()

    # ---- codec objects -----------------------------------------------------------------
    def emit_codecs(self, structs: List[ir.StructType]) -> None:
        p = self.p
        enums = [t for t in self.pkg.types if isinstance(t, ir.EnumType)]
        self.gap()
        p.print("# Codecs: how each type is written and read (fastwire_runtime.wire).")
        p.print("_new = object.__new__  # readers set every field, so they skip __init__")
        for e in enums:
            renamed = {_member_name(v.name): v.name for v in e.values
                       if _member_name(v.name) != v.name}
            extra = f", {renamed!r}" if renamed else ""
            p.value(f'_E_{e.name} = _rt.{"flags" if e.kind == "flags" else "enum"}'
                    f'({_pyname(e.name)}, "{e.base}"{extra})')
        for s in structs:
            base = f", {self.struct_codec(s.base)}" if s.base else ""
            p.value(f'_S_{s.name} = _rt.StructCodec({_pyname(s.name)}, "{s.name}", '
                    f"{s.type_number}{base})")

    def emit_struct_codec(self, s: ir.StructType) -> None:
        p = self.p
        fields = s.all_fields
        self.gap()
        p.value(f"# {s.name} " + "-" * max(3, 86 - len(s.name)))
        p.blank()
        for f in fields:
            if f.type.container is not None or f.type.optional:
                p.value(f"{self.field_codec(s, f)} = {self.codec_expr(f.type)}")
        self.emit_versioned(s)
        if self.options.final:
            self.emit_final(s)
        table = []
        for f in fields:
            extra = ""
            if self.field_attr(f) != f.name:
                extra += f', attr="{self.field_attr(f)}"'
            if f.hidden:
                extra += ", hidden=True"
            table.append(f'_rt.Field("{f.name}", {self.field_codec(s, f)}{extra}),')
        fns = [f"_vput_{s.name}, _vget_{s.name}, _vcheck_{s.name},"]
        if self.options.final:
            fns.append(f"_fput_{s.name}, _fget_{s.name}, _fcheck_{s.name},")
        self.gap()
        p.print("""
            _S_$name$.define(
                $table$,
                $body$,
                $fns$
            )
        """, name=s.name, table="(\n    " + "\n    ".join(table) + "\n)" if table else "()",
                body=self.body_size(s), fns="\n".join(fns))

    def slot(self, f: ir.Field) -> Tuple[str, int]:
        """(struct format, size) of a field's versioned slot; the size is the model's."""
        w = lower.wire_type(self.schema, f.type)
        return _letters(w), w.slot

    def layout(self, s: ir.StructType) -> lower.StructLayout:
        return self.model.struct(s.qualified_name)

    def body_size(self, s: ir.StructType) -> int:
        return self.layout(s).body_size

    @staticmethod
    def kind(f: ir.Field) -> str:
        t = f.type
        if t.container == "array":
            return "array"
        if t.container is not None:
            return "collection"
        if t.optional:
            return "optional"
        ref = t.value
        if ref.kind in ("enum", "flags"):
            return "enum"
        if ref.kind == "struct":
            return "struct"
        if ref.name in ("string", "bytes", "uuid", "decimal"):
            return ref.name
        return "number"

    def checked(self, f: ir.Field) -> bool:
        """A field whose slot value verify() needs (arrays are checked by their codecs)."""
        return self.kind(f) in ("decimal", "string", "bytes", "struct", "optional", "collection")

    def takes_depth(self, f: ir.Field) -> bool:
        return self.kind(f) in ("struct", "optional", "array", "collection")

    @staticmethod
    def lines(items: List[str], suffix: str = ",") -> str:
        return "\n".join(x + suffix for x in items)

    @staticmethod
    def wrap(head: str, items: List[str], tail: str) -> str:
        """`head` + the items separated by commas + `tail`, one item a line when long."""
        line = head + ", ".join(items) + tail
        if len(line) <= 84:
            return line
        return head + "\n    " + ",\n    ".join(items) + ",\n" + tail

    @staticmethod
    def unpack(names: List[str], call: str) -> str:
        """`a_, b_ = call`, wrapped in parentheses when long."""
        if len(names) == 1:
            return f"{names[0]}, = {call}"
        line = ", ".join(names) + " = " + call
        if len(line) <= 84:
            return line
        return "(\n    " + "\n    ".join(x + "," for x in names) + f"\n) = {call}"

    # ---- versioned ---------------------------------------------------------------------
    def emit_versioned(self, s: ir.StructType) -> None:
        p = self.p
        n = s.name
        fields = s.all_fields
        body = self.body_size(s)
        write_fmt = "".join(self.slot(f)[0] for f in fields)
        # Reads unpack [size][type] and the slots at once; arrays are read by their codecs,
        # and verify unpacks only the slots it checks.
        read_fmt = _pads([f"{self.slot(f)[1]}x" if self.kind(f) == "array" else self.slot(f)[0]
                          for f in fields])
        check_fmt = _pads([self.slot(f)[0] if self.checked(f) else f"{self.slot(f)[1]}x"
                           for f in fields])
        flat = bool(fields) and all(self.kind(f) in _FLAT for f in fields)
        # A string or bytes field whose block writers put right after the body (no other
        # field has a block before it): its length is written and read with the body.
        heap = [f for f in fields if self.kind(f) not in ("number", "enum", "uuid", "decimal")]
        after = heap[0] if heap and self.is_text(heap[0]) else None
        length, note = ("I", f", {after.name}'s length") if after else ("", "")
        if flat:  # written at once
            p.value(f'_VP_{n} = _rt.layout("II{write_fmt}{length}")  # header, slots{note}')
        elif after:  # the header and zeros first, then the heap, then the slots
            p.value(f'_VS_{n} = _rt.layout("II{body - 8}x{length}")  # header, zeros{note}')
        else:
            p.value(f"_VH_{n} = _rt.header({body}, {s.type_number})  # header, zeros")
        if fields and not flat:
            p.value(f'_VL_{n} = _rt.layout("{write_fmt}")  # slots')
        if flat and read_fmt == write_fmt:
            p.value(f"_VG_{n} = _VP_{n}  # reads the same")
        else:
            p.value(f'_VG_{n} = _rt.layout("II{read_fmt}{length}")  # reads: header, slots{note}')
        p.value(f'_VC_{n} = _rt.layout("II{check_fmt}{length}")  # verifies: what is checked')
        cls = _pyname(n)
        offsets = [fl.offset for fl in self.layout(s).fields]  # of each slot in the body

        def raw(f: ir.Field, direct: bool = False) -> List[str]:
            """The targets a field's slot values unpack to (arrays: read by position);
            `direct`: plain numbers straight into the new value's attribute."""
            a = self.field_attr(f)
            k = self.kind(f)
            if k == "array":
                return []
            if k == "optional":
                return [f"{a}_", f"{a}_o"]
            return [f"v.{a}" if direct and k == "number" else f"{a}_"]

        # serialize
        self.gap()
        texts = [f for f in fields if self.is_text(f)]
        if flat:
            # Only strings and bytes go to the heap, right after the body: their offsets are
            # known once they are encoded, so the body is packed at once.
            values: List[str] = []
            at, lens = body, ""  # where the next string goes: at + the lengths before it
            for f in fields:
                if self.is_text(f):
                    values.append(f"{at}{lens}")
                    at += 4
                    lens += f" + len({self.field_attr(f)}_)"
                else:
                    values.append(self.vput_expr(s, f))
            if texts:
                values.append(f"len({self.field_attr(texts[0])}_)")
            puts = [self.encode_stmt(f) for f in texts]
            puts.append(self.wrap(f"buf += _VP_{n}.pack(", [str(body), str(s.type_number)] + values,
                                  ")"))
            for i, f in enumerate(texts):
                if i:
                    puts.append(f"buf += _rt.u32(len({self.field_attr(f)}_))")
                puts.append(f"buf += {self.field_attr(f)}_")
            p.print("""
                def _vput_$n$(buf, base, v):
                    pos = len(buf)
                    $puts$
                    return pos - base
            """, n=n, puts="\n".join(puts))
        elif fields:
            # The header and zeros for the slots first (with the length of a string that
            # starts the heap), then the heap blocks in field order, then the slots.
            puts, values = [], []
            for f in fields:
                a = self.field_attr(f)
                k = self.kind(f)
                if f is after:
                    puts.append(self.encode_stmt(f))
                    puts.append(f"buf += _VS_{n}.pack({body}, {s.type_number}, len({a}_))")
                    puts.append(f"buf += {a}_")
                    values.append(str(body))
                elif k == "optional":
                    puts.append(f"{a}_, {a}_o = {self.vput_expr(s, f).lstrip('*')}")
                    values += [f"{a}_", f"{a}_o"]
                elif k == "array":  # its slot values (the elements' heap blocks written)
                    puts.append(f"{a}_ = {self.vput_expr(s, f).lstrip('*')}")
                    values.append(f"*{a}_")
                elif k in ("number", "enum", "uuid", "decimal"):
                    values.append(self.vput_expr(s, f))
                else:
                    puts.append(f"{a}_ = {self.vput_expr(s, f)}")
                    values.append(f"{a}_")
            if not after:
                puts.insert(0, f"buf += _VH_{n}")
            puts.append(self.wrap(f"_VL_{n}.pack_into(", ["buf", "pos + 8"] + values, ")"))
            p.print("""
                def _vput_$n$(buf, base, v):
                    pos = len(buf)
                    $puts$
                    return pos - base
            """, n=n, puts="\n".join(puts))
        else:
            p.print("""
                def _vput_$n$(buf, base, v):
                    pos = len(buf)
                    buf += _VH_$n$
                    return pos - base
            """, n=n)

        # deserialize
        self.gap()
        p.print("""
            def _vget_$n$(r, base, off, slot_end, d):
        """, n=n)
        p.indent()
        if fields:
            p.value(f"v = _new({cls})")
        self.emit_enter(s, "_VG", "vget_slow",
                        ["stored", "found"] + [x for f in fields for x in raw(f, direct=True)]
                        + (["n"] if after else []), after)
        if any(self.takes_depth(f) for f in fields):
            p.print("d -= 1")
        for f, off in zip(fields, offsets):
            get = f"v.{self.field_attr(f)} = {self.vget_expr(s, f, off, self.slot(f)[1])}"
            if f is after:
                p.print("""
                    if ($a$_ == $body$ and (q := pos + $start$ + n) <= r.end
                            and (rest := budget - 4 - n) >= 0):
                        r.budget = rest  # where writers put it, right after the body
                        $read$
                    else:
                        r.budget = budget
                        $get$
                """, a=self.field_attr(f), body=body, start=body + 4, get=get,
                    read=self.read_text(f, f"r.buf[pos + {body + 4}:q]"))
            elif self.kind(f) != "number":
                p.print(get)
        p.print("return v" if fields else f"return {cls}()")
        p.outdent()

        # verify
        self.gap()
        checks = [(f, self.vcheck_stmt(s, f, off, self.slot(f)[1]))
                  for f, off in zip(fields, offsets)]
        checks = [(f, c) for f, c in checks if c]
        p.print("""
            def _vcheck_$n$(r, base, off, slot_end, d):
        """, n=n)
        p.indent()
        self.emit_enter(s, "_VC", "vcheck_slow",
                        ["stored", "found"] + [x for f in fields if self.checked(f)
                                               for x in raw(f)] + (["n"] if after else []), after)
        if any(self.takes_depth(f) for f, _ in checks):
            p.print("d -= 1")
        for f, c in checks:
            if f is after:
                p.print("""
                    if ($a$_ == $body$ and n <= r.end - pos - $start$
                            and (rest := budget - 4 - n) >= 0):
                        r.budget = rest  # where writers put it, right after the body
                    else:
                        r.budget = budget
                        $check$
                """, a=self.field_attr(f), body=body, start=body + 4, check=c)
            else:
                p.print(c)
        p.outdent()

    def emit_enter(self, s: ir.StructType, layout: str, slow: str, names: List[str],
                   after: Optional[ir.Field]) -> None:
        """The start of a versioned reader: one unpack of the header and the slots, and one
        condition for the usual case (this version or a newer one, well formed: the checks
        of the runtime's venter()); anything else, an older version or an error, goes to
        the runtime's slow path."""
        self.p.print("""
            pos = base + off
            try:
                $unpack$
            except _rt.StructError:  # $beyond$ would reach past the end
                stored = 0
            if not (off and slot_end <= pos and $body$ <= stored <= r.end - pos
                    and found == $type$ and d > 0 and (budget := r.budget - stored) >= 0):
                return _S_$n$.$slow$(r, base, off, slot_end, d)  # older version, or error
        """, unpack=self.unpack(names, f"{layout}_{s.name}.unpack_from(r.buf, pos)"),
            body=self.body_size(s), type=s.type_number, n=s.name, slow=slow,
            beyond="the body (or the length after it)" if after else "the body")
        if not after:  # else charged with the string after the body
            self.p.print("r.budget = budget")

    def vput_expr(self, s: ir.StructType, f: ir.Field) -> str:
        k = self.kind(f)
        v = f"v.{self.field_attr(f)}"
        if k in ("number", "enum"):
            return v
        if k == "uuid":
            return f"_rt.uuid_bytes({v})"
        if k == "decimal":
            return f"_rt.decimal_bytes({v})"
        if k == "string":
            return f"_rt.vput_str(buf, pos, {v})"
        if k == "bytes":
            return f"_rt.vput_bytes(buf, pos, {v})"
        if k == "struct":
            return f"{self.struct_fn(f.type.value, 'vput')}(buf, pos, {v})"
        star = "*" if k in ("optional", "array") else ""
        return f"{star}{self.field_codec(s, f)}.vput(buf, pos, {v})"

    def vget_expr(self, s: ir.StructType, f: ir.Field, off: int, size: int) -> str:
        k = self.kind(f)
        a = f"{self.field_attr(f)}_"
        end = f"pos + {off + size}"
        if k == "number":
            return a
        if k == "enum":
            return f"{self.enum_codec(f.type.value)}.of[{a}]"
        if k == "uuid":
            return f"_rt.uuid_of({a})"
        if k == "decimal":
            return f"_rt.decimal_of({a})"
        if k == "string":
            return f"_rt.vget_str(r, pos, {a}, {end})"
        if k == "bytes":
            return f"_rt.vget_bytes(r, pos, {a}, {end})"
        if k == "struct":
            return f"{self.struct_fn(f.type.value, 'vget')}(r, pos, {a}, {end}, d)"
        c = self.field_codec(s, f)
        if k == "optional":
            return f"{c}.vget(r, pos, {a}, {self.field_attr(f)}_o, {end}, d)"
        if k == "array":
            return f"{c}.vget_slot(r, pos + {off}, pos, d)"
        return f"{c}.vget(r, pos, {a}, {end}, d)"

    def vcheck_stmt(self, s: ir.StructType, f: ir.Field, off: int, size: int) -> str:
        k = self.kind(f)
        a = f"{self.field_attr(f)}_"
        end = f"pos + {off + size}"
        if k in ("number", "enum", "uuid"):
            return ""
        if k == "decimal":
            return f"_rt.vcheck_decimal({a})"
        if k in ("string", "bytes"):
            return f"_rt.vcheck_str(r, pos, {a}, {end})"
        if k == "struct":
            return f"{self.struct_fn(f.type.value, 'vcheck')}(r, pos, {a}, {end}, d)"
        c = self.field_codec(s, f)
        if k == "optional":
            return f"{c}.vcheck(r, pos, {a}, {self.field_attr(f)}_o, {end}, d)"
        if k == "array":
            if self.trivial_array(f):
                return ""
            return f"{c}.vcheck_slot(r, pos + {off}, pos, d)"
        return f"{c}.vcheck(r, pos, {a}, {end}, d)"

    @staticmethod
    def trivial_array(f: ir.Field) -> bool:
        """An array whose elements verify trivially (numbers, enums, uuids)."""
        ref = f.type.value
        if f.type.optional:
            return False
        if ref.kind in ("enum", "flags"):
            return True
        return ref.kind == "primitive" and ref.name not in ("string", "bytes", "decimal")

    # ---- final -------------------------------------------------------------------------
    def final_groups(self, s: ir.StructType) -> List[Tuple[str, List[ir.Field]]]:
        """Fields in order: the model's runs of fixed-size values, each with the length
        of a string or bytes field if one follows (its bytes come right after the run), a
        string or bytes field on its own as a run of its length, and the other fields one
        by one. Sets self.run_layouts: (model run or None, bytes packed) of each run."""
        layout = self.layout(s)
        runs = {r.first: r for r in layout.final_runs}
        fields = s.all_fields
        groups: List[Tuple[str, List[ir.Field]]] = []
        self.run_layouts = []
        i = 0
        while i < len(fields):
            if i in runs:
                r = runs[i]
                fs, size, i = list(fields[i:i + r.count]), r.size, i + r.count
                if i < len(fields) and self.is_text(fields[i]):
                    fs.append(fields[i])
                    size += layout.fields[i].wire.final_min  # its length
                    i += 1
                groups.append(("run", fs))
                self.run_layouts.append((r, size))
            elif self.is_text(fields[i]):
                groups.append(("run", [fields[i]]))
                self.run_layouts.append((None, layout.fields[i].wire.final_min))
                i += 1
            else:
                groups.append((self.kind(fields[i]), [fields[i]]))
                i += 1
        return groups

    def is_text(self, f: ir.Field) -> bool:
        return self.kind(f) in ("string", "bytes")

    def encode_stmt(self, f: ir.Field) -> str:
        """`a_ = ...`: a string or bytes field's bytes, ready to be written."""
        a = self.field_attr(f)
        if self.kind(f) != "string":
            return f"{a}_ = v.{a}"
        return (f"try:\n    {a}_ = v.{a}.encode()\n"
                "except UnicodeEncodeError:  # surrogate escapes (text read from bytes that "
                "were not UTF-8)\n"
                f'    {a}_ = v.{a}.encode("utf-8", "surrogateescape")  # go back as they came')

    def read_text(self, f: ir.Field, data: str) -> str:
        """`v.a = ...`: a string or bytes field from its bytes `data` (an expression)."""
        a = self.field_attr(f)
        if self.kind(f) != "string":
            return f"v.{a} = {data}"
        return (f"try:\n    v.{a} = {data}.decode()\n"
                "except UnicodeDecodeError:  # not UTF-8: kept byte for byte\n"
                f'    v.{a} = {data}.decode("utf-8", "surrogateescape")')

    def emit_final(self, s: ir.StructType) -> None:
        p = self.p
        n = s.name
        groups = self.final_groups(s)
        runs: List[Tuple[str, int]] = []  # (layout name, size) of each run, in order
        if any(kind == "run" for kind, _ in groups):
            self.gap()
        for kind, fs in groups:
            if kind == "run":
                fmt = "".join(self.slot(f)[0] for f in fs)
                runs.append((f"_FL_{n}_{len(runs)}", self.run_layouts[len(runs)][1]))
                text = f"  # and {fs[-1].name}'s length" if self.is_text(fs[-1]) else ""
                p.value(f'{runs[-1][0]} = _rt.layout("{fmt}"){text}')
        nested = any(k in ("struct", "optional", "array", "collection") for k, _ in groups)
        guard = "if d < 1:\n    _rt.fail_deep()" + ("\nd -= 1" if nested else "")

        # serialize
        puts: List[str] = []
        run = 0
        for kind, fs in groups:
            if kind == "run":
                args = [self.vput_expr(s, f) for f in fs]
                if self.is_text(fs[-1]):
                    puts.append(self.encode_stmt(fs[-1]))
                    args[-1] = f"len({self.field_attr(fs[-1])}_)"
                puts.append(self.wrap(f"buf += {runs[run][0]}.pack(", args, ")"))
                if self.is_text(fs[-1]):
                    puts.append(f"buf += {self.field_attr(fs[-1])}_")
                run += 1
                continue
            f = fs[0]
            v = f"v.{self.field_attr(f)}"
            if kind == "struct":
                puts.append(f"{self.struct_fn(f.type.value, 'fput')}(buf, {v})")
            else:
                puts.append(f"{self.field_codec(s, f)}.fput(buf, {v})")
        self.gap()
        p.print("""
            def _fput_$n$(buf, v):
                $puts$
        """, n=n, puts="\n".join(puts) or "pass")

        # deserialize and verify; the sizes of runs are added to p lazily (`pending`).
        gets: List[str] = []
        checks: List[str] = []
        values: List[str] = []
        pending = 0
        run = 0

        def at() -> str:
            return f"p + {pending}" if pending else "p"

        for kind, fs in groups:
            if kind == "run":
                text = fs[-1] if self.is_text(fs[-1]) else None
                fixed = fs[:-1] if text else fs
                names = [f"v.{self.field_attr(f)}" if self.kind(f) == "number"
                         else f"{self.field_attr(f)}_" for f in fixed]
                gets.append(self.unpack(names + (["n"] if text else []),
                                        f"{runs[run][0]}.unpack_from(buf, {at()})"))
                values.extend(f"v.{self.field_attr(f)} = {self.vget_expr(s, f, 0, 0)}"
                              for f in fixed if self.kind(f) != "number")
                model_run, packed = self.run_layouts[run]
                for j, f in enumerate(fixed):
                    if self.kind(f) == "decimal":
                        assert model_run is not None
                        checks.append(f"_rt.DECIMAL.fcheck(r, p + {pending + model_run.offsets[j]}, d)")
                fixed_size = model_run.size if model_run is not None else 0
                pending += fixed_size
                if text:
                    gets.append(f"p += {pending + packed - fixed_size} + n\n"
                                "if p > r.end:\n    _rt.fail_truncated()\n"
                                + self.read_text(text, "buf[p - n:p]"))
                    checks.append(f"p = _rt.fcheck_str(r, {at()})")
                    pending = 0
                run += 1
                continue
            f = fs[0]
            if kind == "struct":
                get = f"{self.struct_fn(f.type.value, 'fget')}(r, {at()}, d)"
                check = f"{self.struct_fn(f.type.value, 'fcheck')}(r, {at()}, d)"
            else:
                get = f"{self.field_codec(s, f)}.fget(r, {at()}, d)"
                check = f"{self.field_codec(s, f)}.fcheck(r, {at()}, d)"
            gets.append(f"v.{self.field_attr(f)}, p = {get}")
            checks.append(f"p = {check}")
            pending = 0
        gets += values  # conversions of enums, uuids and decimals
        gets.append(f"return v, {at()}")
        if runs:
            gets.insert(0, "buf = r.buf")
        self.gap()
        p.print("""
            def _fget_$n$(r, p, d):
                $guard$
                v = _new($cls$)
                $gets$
        """, n=n, guard=guard, cls=_pyname(n), gets="\n".join(gets))
        self.gap()
        p.print("""
            def _fcheck_$n$(r, p, d):
                $guard$
                $checks$
                return $end$
        """, n=n, guard=guard, checks="\n".join(checks) or "# nothing of variable size",
                end=at())

    # ---- models and protocol -----------------------------------------------------------
    def emit_models(self, structs: List[ir.StructType]) -> None:
        p = self.p
        for s in self.pkg.structs:
            self.gap()
            p.print(_MODEL, n=s.name, cls=_pyname(s.name))
            if self.options.final:
                self.gap()
                p.print(_FINAL_MODEL, n=s.name, cls=_pyname(s.name))

    def emit_protocol(self) -> None:
        families = [("", "versioned", "Model")]
        if self.options.final:
            families.append(("Final", "final", "FinalModel"))
        for prefix, format_name, model in families:
            self.emit_sender(prefix, format_name, model)
            self.emit_receiver(prefix, format_name, model)

    def sent(self) -> List[ir.StructType]:
        """What this package's protocol sends and receives (the rule of every language:
        its messages, else its structs; fastwire.lower.protocol_types)."""
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).sends]

    @staticmethod
    def table(name: str, items: List[str]) -> str:
        """`name = {...}` with one entry per line."""
        if not items:
            return f"{name} = {{}}"
        return f"{name} = {{\n    " + "\n    ".join(items) + "\n}"

    def emit_sender(self, prefix: str, format_name: str, model: str) -> None:
        # The package's own protocol (docs/schema-language.md, "Protocol"), as in C++:
        # an imported package's types are sent by that package's Sender.
        bases = f"_rt.{prefix}Sender"
        items = [f"{_pyname(m.name)}: {m.name}{model}()," for m in self.sent()]
        self.gap()
        self.p.print(_SENDER, prefix=prefix, bases=bases, pkg=self.pkg.name,
                     format=format_name, table=self.table("_fbe_models", items))

    def emit_receiver(self, prefix: str, format_name: str, model: str) -> None:
        p = self.p
        # The package's own protocol (docs/schema-language.md, "Protocol"), as in C++:
        # an imported package's types are sent by that package's Receiver.
        bases = f"_rt.{prefix}Receiver"
        items = [f'{m.type_number}: ({m.name}{model}(), "on_receive_{_snake(m.name)}"),'
                  for m in self.sent()]
        self.gap()
        p.print(_RECEIVER, prefix=prefix, bases=bases, pkg=self.pkg.name, format=format_name,
                table=self.table("_fbe_handlers", items))
        p.indent()
        for m in self.sent():
            p.blank()
            p.print(_HOOK, snake=_snake(m.name), cls=_pyname(m.name), name=m.name)
        p.outdent()


_MODEL = '''
    class $n$Model(_rt.Model):
        """$cls$ as a versioned root model: serialize(), verify(), deserialize()."""

        __slots__ = ()
        codec = _S_$n$
'''

_FINAL_MODEL = '''
    class $n$FinalModel(_rt.FinalModel):
        """$cls$ as a final (compact) root model."""

        __slots__ = ()
        codec = _S_$n$
'''

_SENDER = '''
    class $prefix$Sender($bases$):
        """Sends what the $pkg$ package's protocol sends ($format$): its messages, or its
        structs when it declares none."""

        $table$
'''

_RECEIVER = '''
    class $prefix$Receiver($bases$):
        """Receives what the $pkg$ package's protocol sends ($format$): override the
        on_receive_<message> hooks."""

        $table$
'''

_HOOK = '''
    def on_receive_$snake$(self, value: $cls$) -> None:
        """Called for each $name$ received."""
'''

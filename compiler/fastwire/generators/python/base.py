"""What every part of the Python generator shares: the package being generated, the
lowered model, the printer, and the Python names of types, fields and codecs."""

from __future__ import annotations

from typing import List, Optional, Set, Tuple

from ... import ir, lower
from ..options import Options
from ..printer import Printer
from .tables import CLASS_NAMES, CODEC, CONTAINER_CODEC, letters, pyname


class Base:
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
        name = pyname(ref.name)
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
        return pyname(field.name, CLASS_NAMES)

    def plain_codec(self, ref: ir.TypeRef) -> str:
        if ref.kind == "primitive":
            return f"_rt.{CODEC[ref.name]}"
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
            return f"_rt.{CONTAINER_CODEC[t.container]}({self.plain_codec(t.key)}, {elem})"
        return f"_rt.{CONTAINER_CODEC[t.container]}({elem})"

    def field_codec(self, s: ir.StructType, f: ir.Field) -> str:
        """The name of the codec a field uses: a shared one, or the struct's own."""
        t = f.type
        if t.container is None and not t.optional:
            return self.plain_codec(t.value)
        return f"_F_{s.name}_{self.field_attr(f)}"

    def gap(self) -> None:
        """Two blank lines, as between top-level definitions."""
        self.p.blank()
        self.p.print("")

    # ---- the wire layout (read from the model) and field kinds ---------------------------
    def slot(self, f: ir.Field) -> Tuple[str, int]:
        """(struct format, size) of a field's versioned slot; the size is the model's."""
        w = lower.wire_type(self.schema, f.type)
        return letters(w), w.slot

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

    def is_text(self, f: ir.Field) -> bool:
        return self.kind(f) in ("string", "bytes")

    # ---- formatting ----------------------------------------------------------------------
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

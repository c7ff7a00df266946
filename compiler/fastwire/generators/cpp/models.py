"""The models header `p_models.h`: the views over versioned bytes and the compile-time
checks that the runtime's layout of each struct is the model's."""

from __future__ import annotations

from typing import List

from ... import ir
from ..printer import Printer
from .names import header, ident, join, namespace
from .structs import Structs
from .types import CONTAINERS

_VIEWS = """

// Zero-copy views (fastwire/view.h): SView checks every offset it follows (any
// bytes); STrustedView checks none (bytes that passed verify()).
"""
_DECLARATIONS = """
    template <class P>
    struct Basic$n$View;
    using $n$View = Basic$n$View<fastwire::versioned::checked>;
    using $n$TrustedView = Basic$n$View<fastwire::versioned::trusted>;
    struct $n$MutableView;
"""
_VIEW_TYPE = """
    template <>
    struct view_type<$t$> {
        template <class P>
        using basic = ::$ns$::Basic$n$View<P>;
        using type = $t$View;
        using trusted_type = $t$TrustedView;
        using mutable_type = $t$MutableView;
    };
"""
_CHECKS = """

// The wire layout the schema compiler worked out (fastwire.lower), checked against
// the runtime's: where they disagree, the build fails here, naming the struct.
"""
_CHECK = """
    static_assert($check$,
                  "$where$: $what$ from the schema compiler's");
"""


class Models(Structs):
    """The models header."""

    def models_header(self, package: ir.Package) -> str:
        final = self.options.final
        p = header(self.options, package, "_models.h",
                   f"// Models that read and write the {package.name} package's types in the FBE formats.",
                   ["<fastwire/model.h>", *(["<fastwire/final_model.h>"] if final else [])],
                   [f'"{package.name}.h"', *(f'"{imp}_models.h"' for imp in package.imports)])
        p.blank()
        structs = self.sorted_structs(package)
        with namespace(p, ident(package.name)):
            for s in structs:
                p.print("using $n$Model = fastwire::model<$n$>;", n=ident(s.name))
                if final:
                    p.print("using $n$FinalModel = fastwire::final_model<$n$>;", n=ident(s.name))
            if structs:
                self.layout_checks(p, package, structs)
                self.views(p, package, structs)
        return p.text()

    def views(self, p: Printer, package: ir.Package, structs: List[ir.StructType]) -> None:
        """Per struct S: the class template BasicSView<P> (read-only accessors) with its
        checked (SView) and trusted (STrustedView) instances, and SMutableView (set_x() for
        the fixed-size fields), reading the slots at the lowered model's offsets."""
        ns = ident(package.name)
        p.print(_VIEWS)
        for s in structs:
            p.print(_DECLARATIONS, n=ident(s.name))
        p.print("}  // namespace $ns$", ns=ns)
        p.blank()
        with namespace(p, "fastwire"):
            for s in structs:
                p.print(_VIEW_TYPE, t=f"::{ns}::{ident(s.name)}", ns=ns, n=ident(s.name))
        p.blank()
        p.print("namespace $ns$ {", ns=ns)
        for s in structs:
            p.blank()
            self.view_class(p, s, package.name)

    def view_class(self, p: Printer, s: ir.StructType, package: str) -> None:
        layout = self.model.struct(s.qualified_name)
        name = ident(s.name)
        fields = list(zip(s.all_fields, layout.fields))
        p.print("template <class P>")
        with p.block("struct Basic$n$View : fastwire::versioned::basic_struct_view<P> {", "};", n=name):
            p.print("using fastwire::versioned::basic_struct_view<P>::basic_struct_view;")
            for f, fl in fields:
                default = self.default_expr(s, f, package) if f.type.container is None else None
                if default and (default.startswith("*") or default.endswith("()")):
                    default = f"[] {{ return {default}; }}"  # computed: only when needed
                p.value(f"{self.view_field_type(f.type, package)} {ident(f.name)}() const noexcept {{ return this->"
                        f"template get_<{self.field_type(f.type, package, CONTAINERS)}, {fl.offset}, "
                        f"{fl.offset + fl.slot}>({default or ''}); }}")
            p.print("// f(every field's view), in wire order: for generic code.")
            p.print("template <class F>")
            calls = join([f"{ident(f.name)}()" for f in s.all_fields], ", ", 64)
            if "\n" in calls:
                with p.block("auto fields_(F&& f) const {", "}"):
                    p.print("return f($calls$);", calls=calls)
            else:
                p.print("auto fields_(F&& f) const { return f($calls$); }", calls=calls)
        with p.block("struct $n$MutableView : $n$View {", "};", n=name):
            p.print("// Over bytes the caller owns and may write (e.g. an element of a view of them).")
            p.print("explicit $n$MutableView(const $n$View& v) noexcept : $n$View(v) {}", n=name)
            for f, fl in fields:
                if fl.wire.is_value:
                    t = self.field_type(f.type, package, CONTAINERS)
                    p.value(f"bool set_{f.name}({t} v) const noexcept {{ return set_<{t}, {fl.offset}, "
                            f"{fl.offset + fl.slot}>(v); }}")

    def layout_checks(self, p: Printer, package: ir.Package, structs: List[ir.StructType]) -> None:
        """static_asserts of the lowered model's layout against the runtime's: a runtime
        and a compiler that disagree about a struct's wire layout fail to build, and the
        message names the struct."""
        p.print(_CHECKS)
        for s in structs:
            layout = self.model.struct(s.qualified_name)
            n = ident(s.name)
            head = f"fastwire::versioned::slot_offsets_are<{n}>({{"  # the offsets aligned under the first
            offsets = join([str(f.offset) for f in layout.fields], ", ", 60).replace("\n", "\n" + " " * len(head))
            fixed = "" if layout.final_size is not None else "!"
            final = f"fastwire::final::min_size<{n}>() == {layout.final_min} && {fixed}fastwire::final::is_fixed<{n}>()"
            body = f"fastwire::versioned::body_size<{n}>() == {layout.body_size}"
            for check, what, wanted in (
                    (body, "versioned body size differs", True),
                    (f"{head}{offsets}}})", "versioned slot offsets differ", bool(layout.fields)),
                    (final, "final-format size differs", self.options.final)):
                if wanted:
                    p.print(_CHECK, check=check, where=f"{package.name}.{s.name}", what=what)

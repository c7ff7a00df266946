"""Loads a schema with its imports, resolves every name and checks it: syntax tree → IR.

The rules are the reference's (spec §1.3–§1.5) plus the checks it leaves out: every
type must exist, defaults must fit their type, map keys must be comparable, a struct
cannot contain itself by value.
"""

from __future__ import annotations

import decimal
import gc
import math
import os
import uuid as uuidlib
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import ir
from . import syntax as ast
from .diagnostics import Location, Reporter, SourceFile
from .graph import components as _components
from .lexer import BUILTIN_TYPES
from .parser import parse

FLOAT_MAX = 3.4028234663852886e38
DECIMAL_MAX = 2 ** 96 - 1
DECIMAL_MAX_SCALE = 28
# How deeply structs may nest (fields of any kind and bases; docs/schema-language.md#limits). The
# generators walk the nesting recursively, and protoc and flatc bound it likewise.
MAX_NESTING = 256

# Types a map/hash key or a set element may have (besides enums, flags, keyed structs).
KEYABLE_PRIMITIVES = set(BUILTIN_TYPES) - {"bytes"}


def _not_utf8(path: str, exc: UnicodeDecodeError) -> Tuple[str, Location]:
    """The message and location (line, column in characters) of the first byte that is
    not UTF-8."""
    data = bytes(exc.object)
    start = data.rfind(b"\n", 0, exc.start) + 1
    line = data.count(b"\n", 0, exc.start) + 1
    column = len(data[start:exc.start].decode("utf-8")) + 1
    text = data.decode("utf-8", "replace")
    return (f"not valid UTF-8: byte 0x{data[exc.start]:02X} (offset {exc.start})",
            Location(SourceFile(path, text), line, column))


# What a package declares under a name.
_Decl = Union[ast.EnumDecl, ast.StructDecl, ast.VariantDecl]


def _src(loc: Location) -> ir.SourceRef:
    return ir.SourceRef(loc.source.path, loc.line, loc.column)


@dataclass
class _Unit:
    """One parsed file and what the resolver learns about it."""

    decl: ast.FileDecl
    source: SourceFile
    symbols: Dict[str, _Decl] = field(default_factory=dict)
    imports: Dict[str, "_Unit"] = field(default_factory=dict)


def _package(unit: _Unit) -> str:
    """The package of a unit that declares one: the resolver passes over the others, and
    only a file whose header declared its package has imports."""
    assert unit.decl.package is not None
    return unit.decl.package


class Resolver:
    def __init__(self, reporter: Reporter, include_dirs: Sequence[str] = ()):
        self.reporter = reporter
        self.include_dirs = list(include_dirs)
        self.units: Dict[str, _Unit] = {}  # package name -> unit
        self.by_path: Dict[str, _Unit] = {}
        self.order: List[_Unit] = []  # dependency order: imports first
        # Results, filled package by package.
        self.enums: Dict[Tuple[str, str], ir.EnumType] = {}
        self.struct_numbers: Dict[Tuple[str, str], int] = {}
        self.structs: Dict[Tuple[str, str], ir.StructType] = {}
        self.variants: Dict[Tuple[str, str], ir.VariantType] = {}
        # Each variant's declaration, and its alternatives' syntax (for the diagnostics).
        self._variant_decls: Dict[Tuple[str, str], Tuple[ast.VariantDecl, List[ast.TypeExpr]]] = {}
        self._interned: Dict[object, object] = {}
        # Shortcuts to the interned primitive references and field types (making one to look
        # it up costs more than the lookup; there are few of them).
        self._refs: Dict[int, Dict[Tuple[str, ...], ir.TypeRef]] = {}  # by id(unit), name
        self._field_types: Dict[tuple, ir.FieldType] = {}

    # -- loading ----------------------------------------------------------------------
    def load_file(self, path: str) -> Optional[_Unit]:
        real = os.path.realpath(path)
        if real in self.by_path:
            return self.by_path[real]
        try:
            with open(path, "r", encoding="utf-8") as fh:
                text = fh.read()
        except UnicodeDecodeError as exc:
            self.reporter.error(*_not_utf8(path, exc))
            return None
        except OSError as exc:
            self.reporter.error(f"cannot read '{path}': {exc.strerror or exc}")
            return None
        source = SourceFile(path, text)
        unit = _Unit(parse(source, self.reporter), source)
        self.by_path[real] = unit
        return unit

    def load(self, path: str) -> Optional[_Unit]:
        root = self.load_file(path)
        if root is None:
            return None
        self._load_imports(root)
        return root

    def _find_import(self, unit: _Unit, name: str) -> Optional[str]:
        here = os.path.dirname(unit.source.path)
        for folder in [here] + self.include_dirs:
            candidate = os.path.join(folder, name + ".fbe")
            if os.path.isfile(candidate):
                return candidate
        return None

    def _load_imports(self, root: _Unit) -> None:
        """Depth-first over imports, so `self.order` lists every import before its user.
        A loop over a stack of the files being read, not a recursion: an import chain can
        be any length (1,000 files ended in Python's RecursionError)."""
        ordered = {id(u) for u in self.order}
        if id(root) in ordered:
            return
        stack: List[_Unit] = [root]  # the files whose imports are being read
        position = {id(root): 0}  # id -> index in stack (units compare by value: slow)
        work = [self._imports(root, stack, position)]
        while work:
            target = next(work[-1], None)
            if target is None:  # every import of the top unit is loaded
                work.pop()
                unit = stack.pop()
                del position[id(unit)]
                self._ordered(unit)
                ordered.add(id(unit))
            elif id(target) not in ordered:
                position[id(target)] = len(stack)
                stack.append(target)
                work.append(self._imports(target, stack, position))

    def _imports(self, unit: _Unit, stack: List[_Unit],
                 position: Dict[int, int]) -> Iterator[_Unit]:
        """Checks and loads each import of `unit` (at the top of `stack`), and yields the
        files to read next."""
        seen_imports: Dict[str, ast.ImportDecl] = {}
        for imp in unit.decl.imports:
            if imp.name in seen_imports:
                self.reporter.error(f"package '{imp.name}' is imported twice", imp.location)
                continue
            seen_imports[imp.name] = imp
            if imp.name == unit.decl.package:
                self.reporter.error(f"package '{imp.name}' cannot import itself", imp.location)
                continue
            path = self._find_import(unit, imp.name)
            if path is None:
                where = ", ".join([os.path.dirname(unit.source.path) or "."] + self.include_dirs)
                self.reporter.error(f"cannot find '{imp.name}.fbe' for 'import {imp.name}' "
                                    f"(searched: {where})", imp.location)
                continue
            target = self.load_file(path)
            if target is None:
                continue
            if target.decl.package is not None and target.decl.package != imp.name:
                self.reporter.error(f"'{path}' declares package '{target.decl.package}', not "
                                    f"'{imp.name}'", imp.location)
                continue
            if id(target) in position:
                # Every unit on the stack is reading its imports: each has a package.
                cycle = [_package(u) for u in stack[position[id(target)]:]] + [imp.name]
                self.reporter.error(f"import cycle: {' -> '.join(cycle)}", imp.location)
                continue
            unit.imports[imp.name] = target
            yield target

    def _ordered(self, unit: _Unit) -> None:
        """`unit` with all its imports loaded: its package is declared, and it is next in
        dependency order."""
        if unit.decl.package is not None:
            other = self.units.get(unit.decl.package)
            if other is not None and other is not unit:
                self.reporter.error(f"package '{unit.decl.package}' is declared by both "
                                    f"'{other.source.path}' and '{unit.source.path}'",
                                    unit.decl.package_location)
            self.units[unit.decl.package] = unit
        self.order.append(unit)

    # -- resolution -------------------------------------------------------------------
    def resolve(self, root: _Unit) -> Optional[ir.Schema]:
        if root.decl.package is None:
            return None
        for unit in self.order:
            if unit.decl.package is not None:
                self._declare(unit)
        for unit in self.order:
            if unit.decl.package is not None:
                self._resolve_enums(unit)
        for unit in self.order:
            if unit.decl.package is not None:
                self._number_structs(unit)
        self._resolve_variants()
        self._resolve_structs()
        packages = []
        for unit in self.order:
            d = unit.decl
            if d.package is None:
                continue
            types: List[ir.NamedType] = []
            listed = set()  # ids: comparing the types themselves is deep and quadratic
            for decl in d.declarations:
                key = (d.package, decl.name)
                t: Optional[ir.NamedType] = self.enums.get(key) if isinstance(decl, ast.EnumDecl) \
                    else self.variants.get(key) if isinstance(decl, ast.VariantDecl) \
                    else self.structs.get(key)
                if t is not None and id(t) not in listed:
                    listed.add(id(t))
                    types.append(t)
            packages.append(ir.Package(d.package, d.domain, d.offset, d.version,
                                       tuple(i.name for i in d.imports if i.name in unit.imports),
                                       tuple(types), unit.source.path, d.doc,
                                       tuple((o.name, o.value) for o in d.options)))
        return ir.Schema(root.decl.package, tuple(packages))

    def _declare(self, unit: _Unit) -> None:
        for decl in unit.decl.declarations:
            prev = unit.symbols.get(decl.name)
            if prev is not None:
                self.reporter.error(f"'{decl.name}' is declared twice in package "
                                    f"'{unit.decl.package}'", decl.location)
                self.reporter.note(f"'{decl.name}' was first declared here", prev.location)
                continue
            unit.symbols[decl.name] = decl

    # Name lookup ------------------------------------------------------------------------
    def _lookup(self, unit: _Unit, name: ast.Name, what: str):
        """Resolves `Name` or `pkg.Name` to (unit, decl); reports and returns None if not."""
        parts = name.parts
        if len(parts) == 1:
            decl = unit.symbols.get(parts[0])
            if decl is not None:
                return unit, decl
            hints = [f"{p}.{parts[0]}" for p, u in unit.imports.items() if parts[0] in u.symbols]
            hint = f"; did you mean '{hints[0]}'?" if hints else ""
            self.reporter.error(f"unknown {what} '{name.text}'{hint}", name.location)
            return None
        if len(parts) == 2:
            pkg, tname = parts
            target = unit if pkg == unit.decl.package else unit.imports.get(pkg)
            if target is None:
                self.reporter.error(f"unknown {what} '{name.text}': package '{pkg}' is not "
                                    f"imported", name.location)
                return None
            decl = target.symbols.get(tname)
            if decl is None:
                self.reporter.error(f"unknown {what} '{name.text}': package '{pkg}' has no "
                                    f"type '{tname}'", name.location)
                return None
            return target, decl
        self.reporter.error(f"unknown {what} '{name.text}'", name.location)
        return None

    def _type_ref(self, unit: _Unit, name: ast.Name, what: str) -> Optional[ir.TypeRef]:
        parts = name.parts
        # The references found, by the unit they are written in and the name: every
        # package's symbols are declared before any type is looked up, so a name found once
        # is found the same the next time (a name not found is reported each time).
        known = self._refs.get(id(unit))
        if known is None:
            known = self._refs[id(unit)] = {}
        ref = known.get(parts)
        if ref is not None:
            return ref
        if len(parts) == 1 and parts[0] in BUILTIN_TYPES:
            ref = known[parts] = self._shared(ir.TypeRef("primitive", parts[0]))
            return ref
        found = self._lookup(unit, name, what)
        if found is None:
            return None
        target, decl = found
        kind = "struct" if isinstance(decl, ast.StructDecl) else decl.kind
        ref = known[parts] = self._shared(ir.TypeRef(kind, decl.name, target.decl.package))
        return ref

    def _shared(self, value):
        """One instance of each equal type reference (they are immutable): big schemas
        repeat the same few types on every field."""
        return self._interned.setdefault(value, value)

    # Enums and flags --------------------------------------------------------------------
    def _resolve_enums(self, unit: _Unit) -> None:
        pkg = _package(unit)
        for decl in unit.decl.declarations:
            if not isinstance(decl, ast.EnumDecl) or unit.symbols.get(decl.name) is not decl:
                continue
            base = decl.base.parts[0] if decl.base else "int32"
            lo, hi = ir.INTEGER_RANGES[base]
            values: List[ir.EnumValue] = []
            known: Dict[str, int] = {}
            next_value = 0
            for v in decl.values:
                if v.name in known:
                    self.reporter.error(f"value '{v.name}' is declared twice in {decl.kind} "
                                        f"'{decl.name}'", v.location)
                    continue
                if v.value is None:
                    if decl.kind == "flags":
                        self.reporter.error(f"flags value '{v.name}' needs an explicit value: "
                                            f"'{v.name} = 0x01;'", v.location)
                        continue
                    value = next_value
                    if not lo <= value <= hi:
                        self.reporter.error(f"implicit value {value} of '{v.name}' is out of "
                                            f"range for {base}", v.location)
                        continue
                else:
                    constant = self._enum_constant(decl, v, known, base)
                    if constant is None:
                        continue
                    value = constant
                known[v.name] = value
                next_value = value + 1
                values.append(ir.EnumValue(v.name, value, v.hidden, v.deprecated, v.doc,
                                           _src(v.location)))
            self.enums[(pkg, decl.name)] = ir.EnumType(
                decl.kind, decl.name, pkg, base, tuple(values), decl.hidden, decl.deprecated,
                decl.doc, _src(decl.location))

    def _enum_constant(self, decl: ast.EnumDecl, v: ast.ValueDecl, known: Dict[str, int],
                       base: str) -> Optional[int]:
        lit = v.value
        assert lit is not None  # the caller numbers the values written without one
        lo, hi = ir.INTEGER_RANGES[base]
        if lit.kind == "char":
            if decl.kind == "flags":
                self.reporter.error("a flags value cannot be a character literal", lit.location)
                return None
            assert isinstance(lit.value, str)  # the lexer decodes a char literal to str
            if len(lit.value) != 1:
                self.reporter.error("a character literal holds exactly one character",
                                    lit.location)
                return None
            value = ord(lit.value)
        elif lit.kind == "int":
            assert isinstance(lit.value, int)  # the lexer decodes an integer literal to int
            value = lit.value
        else:
            if decl.kind == "enum" and len(lit.names) > 1:
                self.reporter.error("an enum value is one number or one name; '|' is for flags",
                                    lit.location)
                return None
            value = 0
            for name in lit.names:
                if len(name.parts) != 1:
                    self.reporter.error(f"refer to values of the same {decl.kind} by their bare "
                                        f"name, not '{name.text}'", name.location)
                    return None
                if name.parts[0] not in known:
                    self.reporter.error(f"'{name.text}' is not a value declared before '{v.name}' "
                                        f"in {decl.kind} '{decl.name}'", name.location)
                    return None
                value |= known[name.parts[0]]
        if not lo <= value <= hi:
            self.reporter.error(f"value {value} of '{v.name}' is out of range for {base} "
                                f"({lo}..{hi})", lit.location)
            return None
        return value

    # Variants ------------------------------------------------------------------------------
    def _resolve_variants(self) -> None:
        """Each variant's alternatives, resolved: no two alike, at least one. What needs the
        structs (keys, containment, nesting) is checked with them."""
        for unit in self.order:
            pkg = unit.decl.package
            if pkg is None:
                continue
            for decl in unit.decl.declarations:
                if not isinstance(decl, ast.VariantDecl) or unit.symbols.get(decl.name) is not decl:
                    continue
                if not decl.alternatives and not decl.misread:
                    self.reporter.error(f"variant '{decl.name}' has no alternatives; give it at "
                                        f"least one type: 'variant {decl.name} {{ int32; }}'",
                                        decl.location)
                types: List[ir.FieldType] = []
                written: List[ast.TypeExpr] = []
                given = set()
                for texpr in decl.alternatives:
                    t = self._field_type(unit, texpr)
                    if t is None:
                        continue
                    if t in given:
                        self.reporter.error(f"alternative '{ir.spell(t, pkg)}' is given twice in "
                                            f"variant '{decl.name}'", texpr.location)
                        continue
                    given.add(t)
                    types.append(t)
                    written.append(texpr)
                key = (pkg, decl.name)
                self.variants[key] = ir.VariantType(
                    "variant", decl.name, pkg, tuple(types), decl.hidden, decl.deprecated,
                    decl.doc, _src(decl.location))
                self._variant_decls[key] = (decl, written)

    def _check_variants(self) -> None:
        """The keys and set elements of the alternatives that are maps, hashes or sets."""
        for key, v in self.variants.items():
            _, written = self._variant_decls[key]
            for i, (t, texpr) in enumerate(zip(v.alternatives, written)):
                what = f"alternative '{v.alternative_name(i)}' of variant '{v.name}'"
                if t.key is not None:  # a map or a hash
                    why = self._keyable(t.key)
                    if why:
                        assert texpr.key is not None
                        self.reporter.error(f"'{t.key.qualified_name}' cannot be the key of "
                                            f"{what}: {why}", texpr.key.location)
                if t.container == "set":
                    why = self._keyable(t.value)
                    if why:
                        self.reporter.error(f"'{t.value.qualified_name}' cannot be the element "
                                            f"of {what}: {why}", texpr.base.location)

    # Struct type numbers (spec §1.3) --------------------------------------------------------
    def _number_structs(self, unit: _Unit) -> None:
        pkg = _package(unit)
        counter = 0
        offset = unit.decl.offset
        numbered: List[Tuple[ast.StructDecl, int]] = []
        for decl in unit.decl.declarations:
            if not isinstance(decl, ast.StructDecl) or unit.symbols.get(decl.name) is not decl:
                continue
            number: Optional[int]
            if decl.numbering == "auto":
                counter += 1
                number = counter + offset
            elif decl.numbering == "shift":
                assert decl.number is not None  # the parser gives '(+N)' its number
                counter = decl.number
                number = counter + offset
            elif decl.numbering == "fixed":
                number = decl.number
            else:
                number = None  # (base): the base's number, below
            if number is not None and number > 0xFFFFFFFF:
                self.reporter.error(f"type number {number} of '{decl.name}' does not fit in "
                                    f"32 bits", decl.number_location or decl.location)
                number = None
            if number is not None:
                self.struct_numbers[(pkg, decl.name)] = number
                numbered.append((decl, number))
        # (base) numbers, following the base chain (possibly into imported packages).
        for decl in unit.decl.declarations:
            if isinstance(decl, ast.StructDecl) and decl.numbering == "base" \
                    and unit.symbols.get(decl.name) is decl:
                number = self._base_number(unit, decl)
                if number is not None:
                    self.struct_numbers[(pkg, decl.name)] = number
        self._check_numbers(unit, numbered)

    def _base_number(self, unit: _Unit, decl: ast.StructDecl) -> Optional[int]:
        """The number a '(base)' struct takes: its base chain's first explicit number. A
        loop, not a recursion (chains can be thousands long); the numbers found are kept
        for the other '(base)' structs on the way."""
        seen = set()
        path = []
        number: Optional[int] = None
        while True:
            # The caller's unit declares a package, and so does every unit a lookup finds a
            # struct in (only those have symbols).
            pkg = unit.decl.package
            assert pkg is not None
            key = (pkg, decl.name)
            if key in self.struct_numbers:
                number = self.struct_numbers[key]
                break
            if decl.base is None:
                self.reporter.error(f"'(base)' numbering requires a base struct: 'struct "
                                    f"{decl.name}(base) : Base'", decl.number_location)
                return None
            if key in seen:
                return None  # an inheritance cycle, reported when fields are resolved
            seen.add(key)
            if decl.numbering == "base":
                path.append(key)
            found = self._lookup_quiet(unit, decl.base)
            if found is None or not isinstance(found[1], ast.StructDecl):
                return None  # reported when the base is resolved
            unit, decl = found
        for key in path:
            self.struct_numbers[key] = number
        return number

    def _lookup_quiet(self, unit: _Unit, name: ast.Name):
        if len(name.parts) == 1:
            d = unit.symbols.get(name.parts[0])
            return (unit, d) if d is not None else None
        if len(name.parts) == 2:
            target = unit if name.parts[0] == unit.decl.package else unit.imports.get(name.parts[0])
            if target is not None and name.parts[1] in target.symbols:
                return target, target.symbols[name.parts[1]]
        return None

    def _check_numbers(self, unit: _Unit, numbered: List[Tuple[ast.StructDecl, int]]) -> None:
        # The protocol sends the messages, or the structs when there is no message
        # (lower.protocol_types): only two types it sends must differ in number.
        sends_messages = any(decl.kind == "message" for decl, _ in numbered)
        first: Dict[int, ast.StructDecl] = {}
        for decl, number in numbered:
            prev = first.get(number)
            if prev is None:
                first[number] = decl
                continue
            both_fixed = decl.numbering == "fixed" and prev.numbering == "fixed"
            message = (f"type number {number} of '{decl.name}' is already used by "
                       f"'{prev.name}'")
            if both_fixed:
                self.reporter.error(message, decl.number_location)
            elif sends_messages and "struct" in (decl.kind, prev.kind):
                continue  # not both sent by the package's protocol: nothing to tell apart
            else:
                self.reporter.warning(message + "; a receiver cannot tell them apart",
                                      decl.number_location or decl.location)
            self.reporter.note(f"'{prev.name}' is declared here", prev.location)

    # Structs ---------------------------------------------------------------------------
    def _resolve_structs(self) -> None:
        pending: List[Tuple[str, _Unit, ast.StructDecl]] = []
        for unit in self.order:
            pkg = unit.decl.package
            if pkg is None:
                continue
            for decl in unit.decl.declarations:
                if isinstance(decl, ast.StructDecl) and unit.symbols.get(decl.name) is decl:
                    pending.append((pkg, unit, decl))
        own: Dict[Tuple[str, str], Tuple[ast.StructDecl, _Unit, Optional[ir.TypeRef],
                                        Tuple[ir.Field, ...]]] = {}
        for pkg, unit, decl in pending:
            base_ref = None
            if decl.base is not None:
                base_ref = self._type_ref(unit, decl.base, "base struct")
                if base_ref is not None and base_ref.kind != "struct":
                    self.reporter.error(f"'{decl.base.text}' is {_article(base_ref.kind)} "
                                        f"{base_ref.kind}; only a struct can be a base",
                                        decl.base.location)
                    base_ref = None
            fields = self._own_fields(unit, decl)
            own[(pkg, decl.name)] = (decl, unit, base_ref, fields)

        if not self._check_nesting(own):
            return  # the rest would cost time and memory in proportion to the nesting

        # Flatten inheritance base-first, detecting cycles (a loop over each base chain,
        # not a recursion).
        flat: Dict[Tuple[str, str], Tuple[ir.Field, ...]] = {}
        for start in own:
            chain: List[Tuple[str, str]] = []
            at: Dict[Tuple[str, str], int] = {}
            key = start
            inherited: Tuple[ir.Field, ...] = ()
            while key not in flat:
                decl, _unit, base_ref, fields = own[key]
                if key in at:
                    cycle = " -> ".join(k[1] for k in chain[at[key]:]) + " -> " + key[1]
                    assert decl.base is not None
                    self.reporter.error(f"inheritance cycle: {cycle}", decl.base.location)
                    flat[key] = fields
                    break
                at[key] = len(chain)
                chain.append(key)
                if base_ref is None:
                    break
                key = (base_ref.package or "", base_ref.name)
            if key in flat:
                inherited = flat[key]
            for key in reversed(chain):
                decl, _unit, base_ref, fields = own[key]
                by_name = {f.name: f for f in inherited}
                for f in fields:
                    if f.name in by_name and f.id and by_name[f.name].id:
                        self.reporter.error(f"{decl.kind} '{decl.name}' has more than one "
                                            f"'[id]' field (one is inherited from "
                                            f"'{by_name[f.name].declared_in}')",
                                            self._field_location(decl, f))
                    elif f.name in by_name:
                        self.reporter.error(f"field '{f.name}' of '{decl.name}' is already "
                                            f"inherited from '{by_name[f.name].declared_in}'",
                                            self._field_location(decl, f))
                inherited = inherited + fields
                flat[key] = inherited

        for key, (decl, unit, base_ref, fields) in own.items():
            all_fields = flat[key]
            number = self.struct_numbers.get(key, 0)
            response = None
            rejects = []
            if decl.response is not None:
                response = self._struct_ref(unit, decl.response, "response type")
            for r in decl.rejects:
                ref = self._struct_ref(unit, r.name, "reject type")
                if ref is not None:
                    rejects.append(ir.Reject(ref, r.global_))
            self.structs[key] = ir.StructType(
                decl.kind, decl.name, key[0], number, decl.numbering, base_ref, fields,
                all_fields, decl.hidden, decl.deprecated, decl.request, response,
                tuple(rejects), decl.doc, _src(decl.location))

        for key, (decl, _unit, _, _) in own.items():
            self._check_struct(decl, self.structs[key])
        self._check_variants()
        self._check_containment(own)

    def _struct_ref(self, unit: _Unit, name: ast.Name, what: str) -> Optional[ir.TypeRef]:
        ref = self._type_ref(unit, name, what)
        if ref is not None and ref.kind != "struct":
            self.reporter.error(f"{what} '{name.text}' must be a struct or message, not "
                                f"{_article(ref.kind)} {ref.kind}", name.location)
            return None
        return ref

    def _field_location(self, decl: ast.StructDecl, f: ir.Field) -> Location:
        for fd in decl.fields:
            if fd.name == f.name or (f.reset_of and fd.name == f.reset_of):
                return fd.name_location
        # A declaration _own_fields let go: its name's place is in the IR ('[id]' is the
        # name token of an id field).
        src, at = f.location, decl.location
        if src is not None and src.file == at.path:
            return Location(at.source, src.line, src.column,
                            len("[id]") if f.id else len(f.reset_of or f.name))
        return at

    def _own_fields(self, unit: _Unit, decl: ast.StructDecl) -> Tuple[ir.Field, ...]:
        out: List[ir.Field] = []
        seen: Dict[str, ast.FieldDecl] = {}
        qualified = f"{unit.decl.package}.{decl.name}"
        field_type, source_ref, field = self._field_type, ir.SourceRef, ir.Field
        for fd in decl.fields:
            if fd.type.reset:
                names: Tuple[str, ...] = (fd.name, fd.name + "Reset")
                dup = next((n for n in names if n in seen), None)
            elif fd.name not in seen:  # most fields
                seen[fd.name] = fd
                ftype = field_type(unit, fd.type)
                if ftype is None:
                    continue
                at = fd.name_location
                out.append(field(fd.name, ftype, None if fd.default is None else
                                 self._default(unit, fd, ftype), fd.key, fd.id, fd.hidden,
                                 fd.deprecated, qualified, fd.doc,
                                 source_ref(at.source.path, at.line, at.column)))
                continue
            else:
                names = (fd.name,)
                dup = fd.name
            if dup is not None and fd.id and seen[dup].id:
                self.reporter.error(f"{decl.kind} '{decl.name}' has more than one '[id]' field",
                                    fd.name_location)
                continue
            if dup is not None:
                self.reporter.error(f"field '{dup}' is declared twice in {decl.kind} "
                                    f"'{decl.name}'", fd.name_location)
                continue
            for n in names:
                seen[n] = fd
            ftype = self._field_type(unit, fd.type)
            if ftype is None:
                continue
            default = None
            if fd.default is not None:
                default = self._default(unit, fd, ftype)
            loc = _src(fd.name_location)
            out.append(ir.Field(fd.name, ftype, default, fd.key, fd.id, fd.hidden, fd.deprecated,
                                qualified, fd.doc, loc))
            if fd.type.reset:
                out.append(ir.Field(fd.name + "Reset", ir.FieldType(ir.TypeRef("primitive",
                                                                               "bool")),
                                    None, False, False, False, False, qualified, None, loc,
                                    reset_of=fd.name))
        # The declarations are let go as soon as they are in the IR, so that a big schema's
        # syntax and IR never both exist whole; only those _check_struct still reads stay.
        decl.fields = [fd for fd in decl.fields
                       if fd.key or fd.type.key is not None or fd.type.container == "set"]
        return tuple(out)

    def _field_type(self, unit: _Unit, t: ast.TypeExpr) -> Optional[ir.FieldType]:
        value = self._type_ref(unit, t.base, "type")
        key = None
        if t.key is not None:
            key = self._type_ref(unit, t.key, "key type")
            if key is None:
                return None
        if value is None:
            return None
        if value.kind != "primitive" or key is not None:
            # Each struct's field types are used by few fields: a memo of them would cost
            # more memory than it saves time.
            return self._shared(ir.FieldType(value, t.optional, t.container, t.size, key))
        # The few field types of primitives, by what makes them (primitive references are
        # shared, so their ids identify them, and they live as long).
        ident = (id(value), t.optional, t.container, t.size)
        ftype = self._field_types.get(ident)
        if ftype is None:
            ftype = self._field_types[ident] = self._shared(
                ir.FieldType(value, t.optional, t.container, t.size, None))
        return ftype

    def _keyable(self, ref: ir.TypeRef) -> Optional[str]:
        """Why `ref` cannot be a map key or set element, or None if it can."""
        if ref.kind == "primitive":
            return None if ref.name in KEYABLE_PRIMITIVES else "bytes cannot be compared"
        if ref.kind == "struct":
            assert ref.package is not None  # a reference to a named type has its package
            s = self.structs.get((ref.package, ref.name))
            if s is not None and not s.key_fields:
                return f"struct '{ref.name}' has no '[key]' field to compare by"
        if ref.kind == "variant":
            return f"variant '{ref.name}' has no ordering or hash"
        return None

    def _check_struct(self, decl: ast.StructDecl, s: ir.StructType) -> None:
        for f, fd in zip_fields(s.fields, decl.fields):
            t = f.type
            if t.container in ("map", "hash"):
                why = self._keyable(t.key)
                if why:
                    self.reporter.error(f"'{t.key.qualified_name}' cannot be the key of "
                                        f"{t.container} field '{f.name}': {why}",
                                        fd.type.key.location)
            if t.container == "set":
                why = self._keyable(t.value)
                if why:
                    self.reporter.error(f"'{t.value.qualified_name}' cannot be the element of "
                                        f"set field '{f.name}': {why}", fd.type.base.location)
            if f.key and not f.id:
                why = None
                if t.container is not None:
                    why = f"a {t.container} cannot be compared and hashed as a key"
                else:
                    why = self._keyable(t.value)
                if why:
                    self.reporter.error(f"field '{f.name}' cannot be a '[key]': {why}",
                                        fd.name_location)
        if s.request and s.response is not None:
            # Both were resolved from decl.response, a reference to a named type.
            assert s.response.package is not None and decl.response is not None
            response = self.structs.get((s.response.package, s.response.name))
            for what, st in (("request", s), ("response", response)):
                if st is None:
                    continue
                idf = st.id_field
                if idf is None or idf.type != ir.FieldType(ir.TypeRef("primitive", "uuid")):
                    self.reporter.error(f"{what} '{st.name}' needs a 'uuid [id]' field to match "
                                        f"responses to requests",
                                        decl.response.location if what == "response"
                                        else decl.location)

    def _nodes(self, refs, own) -> List[Tuple[str, str]]:
        """The structs (of `own`) and variants the references name."""
        out = []
        for ref in refs:
            if ref is not None and ref.kind in ("struct", "variant"):
                key = (ref.package, ref.name)
                if key in own or key in self.variants:
                    out.append(key)
        return out

    def _check_nesting(self, own) -> bool:
        """Structs may nest at most MAX_NESTING levels: through fields of any kind (by
        value, optional, in a collection, as a map key), through bases, and through
        variants (each a level, reached and reaching as a struct's fields do). A recursive
        group (structs that reach each other through collections) counts as many levels
        as it has structs. Reports the first struct, in declaration order (then the first
        variant), that nests deeper; False then."""
        succ: Dict[Tuple[str, str], List[Tuple[str, str]]] = {}
        for key, (_decl, _unit, base_ref, fields) in own.items():
            out = self._nodes((ref for f in fields for ref in (f.type.value, f.type.key)), own)
            if base_ref is not None and (base_ref.package, base_ref.name) in own:
                out.append((base_ref.package, base_ref.name))
            succ[key] = out
        for key, v in self.variants.items():
            succ[key] = self._nodes((ref for t in v.alternatives for ref in (t.value, t.key)), own)
        component, members = _components(list(succ), succ)
        depth: List[int] = []
        for c, group in enumerate(members):  # sinks first
            deepest = 0
            for node in group:
                for nxt in succ[node]:
                    if component[nxt] != c:
                        deepest = max(deepest, depth[component[nxt]])
            depth.append(len(group) + deepest)
        for key, (decl, _unit, _base, _fields) in own.items():
            levels = depth[component[key]]
            if levels > MAX_NESTING:
                self.reporter.error(f"struct '{decl.name}' nests structs {levels} levels deep "
                                    f"(through its fields and bases); the limit is "
                                    f"{MAX_NESTING}", decl.location)
                return False
        for key, (vdecl, _) in self._variant_decls.items():
            levels = depth[component[key]]
            if levels > MAX_NESTING:
                self.reporter.error(f"variant '{vdecl.name}' nests {levels} levels of structs "
                                    f"and variants (through its alternatives); the limit is "
                                    f"{MAX_NESTING}", vdecl.location)
                return False
        return True

    def _check_containment(self, own) -> None:
        """A struct may not contain itself by value: plain, optional or array fields; nor
        may a variant, through its alternatives (plain or arrays), and structs and variants
        may contain each other so. Only those in a cycle of such fields and alternatives
        are searched, each within its cycle."""
        # An edge's label: the field (from a struct) or the alternative's index (a variant).
        Label = Union[ir.Field, int]
        edges: Dict[Tuple[str, str], List[Tuple[Tuple[str, str], Label]]] = {}

        def by_value(t: ir.FieldType) -> Optional[Tuple[str, str]]:
            ref = t.value
            if ref.kind in ("struct", "variant") and t.container in (None, "array") \
                    and ref.package is not None:
                key = (ref.package, ref.name)
                if key in self.structs or key in self.variants:
                    return key
            return None

        for key, s in self.structs.items():
            out: List[Tuple[Tuple[str, str], Label]] = []
            for f in s.all_fields:
                held = by_value(f.type)
                if held is not None:
                    out.append((held, f))
            edges[key] = out
        for key, v in self.variants.items():
            edges[key] = [(held, i) for i, held in enumerate(map(by_value, v.alternatives))
                          if held is not None]
        component, members = _components(list(edges),
                                         {k: [n for n, _ in e] for k, e in edges.items()})
        reported = set()
        for start in edges:
            group = component[start]
            if len(members[group]) == 1 and all(n != start for n, _ in edges[start]):
                continue  # not in a cycle
            # Depth-first search for a path back to `start`; each step links to the one
            # before it, so the path is rebuilt only when reported.
            Step = Optional[Tuple[Tuple[str, str], Label, object]]
            stack: List[Tuple[Tuple[str, str], Step]] = [(start, None)]
            seen = set()
            while stack:
                node, path = stack.pop()
                for nxt, label in edges[node]:
                    if component[nxt] != group:
                        continue  # cannot lead back to start
                    step: Step = (node, label, path)
                    if nxt == start:
                        nodes: List[Tuple[str, str]] = []
                        link: Any = step
                        first = label
                        while link is not None:
                            nodes.append(link[0])
                            first, link = link[1], link[2]
                        nodes.reverse()
                        which = first if isinstance(first, int) else first.name
                        if (start, which) in reported:
                            continue
                        reported.add((start, which))
                        via = " -> ".join(n[1] for n in nodes) + " -> " + start[1]
                        detail = "" if len(nodes) == 1 else f" (through {via})"
                        self._report_containment(own, start, first, detail)
                    elif nxt not in seen:
                        seen.add(nxt)
                        stack.append((nxt, step))

    def _report_containment(self, own, start: Tuple[str, str], first: Union[ir.Field, int],
                            detail: str) -> None:
        if isinstance(first, int):
            decl, written = self._variant_decls[start]
            name = self.variants[start].alternative_name(first)
            self.reporter.error(f"alternative '{name}' contains its own variant '{start[1]}' by "
                                f"value{detail}; use a vector or a list",
                                written[first].location)
            return
        self.reporter.error(f"field '{first.name}' contains its own struct '{start[1]}' by "
                            f"value{detail}; use a vector or a list",
                            self._field_location(own[start][0], first))

    # Defaults (spec §1.5) ---------------------------------------------------------------------
    def _default(self, unit: _Unit, fd: ast.FieldDecl, t: ir.FieldType) -> Optional[ir.Default]:
        lit = fd.default
        assert lit is not None  # called for the fields that have a default
        name = fd.name
        if lit.kind == "null":
            if t.optional and t.container is None:
                return ir.Default("null", None, "null")
            self.reporter.error(f"'null' is only a default for optional fields; '{name}' is "
                                f"{t.describe()}", lit.location)
            return None
        if t.container is not None:
            self.reporter.error(f"field '{name}' is a {t.container}; collections cannot have a "
                                f"default", lit.location)
            return None
        v = t.value
        if v.kind == "struct":
            self.reporter.error(f"field '{name}' is a struct; a struct's defaults come from its "
                                f"own fields", lit.location)
            return None
        if v.kind == "variant":
            self.reporter.error(f"field '{name}' is a variant, which cannot have a default: it "
                                f"starts as its first alternative, with that type's default",
                                lit.location)
            return None
        if v.kind in ("enum", "flags"):
            return self._enum_default(unit, fd, v)
        return self._primitive_default(v.name, lit, name)

    def _primitive_default(self, prim: str, lit: ast.Literal, name: str) -> Optional[ir.Default]:
        def bad(expected: str) -> Optional[ir.Default]:
            """Reports a literal of the wrong kind; None, for `return bad(...)`."""
            self.reporter.error(f"field '{name}' of type {prim} needs {expected}, not "
                                f"'{lit.text}'", lit.location)
            return None

        if prim == "bool":
            if lit.kind == "bool":
                assert isinstance(lit.value, bool)
                return ir.Default("bool", lit.value, lit.text)
            return bad("'true' or 'false'")
        if prim in ir.INTEGER_RANGES:
            lo, hi = ir.INTEGER_RANGES[prim]
            if lit.kind == "names" and len(lit.names) == 1 and lit.names[0].parts in (("min",),
                                                                                    ("max",)):
                if prim in ("char", "wchar"):
                    return bad("a character or a number")
                word = lit.names[0].parts[0]
                return ir.Default("integer", lo if word == "min" else hi, lit.text)
            if lit.kind == "char" and prim in ("char", "wchar"):
                assert isinstance(lit.value, str)  # the lexer decodes a char literal to str
                if len(lit.value) != 1:
                    self.reporter.error("a character literal holds exactly one character",
                                        lit.location)
                    return None
                value = ord(lit.value)
                if value > hi:
                    self.reporter.error(f"character {lit.text} does not fit in {prim}",
                                        lit.location)
                    return None
                return ir.Default("integer", value, lit.text)
            if lit.kind != "int":
                return bad("a character or a number" if prim in ("char", "wchar")
                           else "an integer, 'min' or 'max'")
            assert isinstance(lit.value, int)  # the lexer decodes an integer literal to int
            if not lo <= lit.value <= hi:
                self.reporter.error(f"default {lit.text} of field '{name}' is out of range for "
                                    f"{prim} ({lo}..{hi})", lit.location)
                return None
            return ir.Default("integer", lit.value, lit.text)
        if prim in ("float", "double"):
            if lit.kind not in ("int", "float"):
                return bad("a number")
            if lit.kind == "int":
                assert isinstance(lit.value, int)  # the lexer decodes an integer literal to int
                number = float(lit.value)
            else:
                number = float(lit.text)
            limit = FLOAT_MAX if prim == "float" else 1.7976931348623157e308
            if math.isinf(number) or abs(number) > limit:
                self.reporter.error(f"default {lit.text} of field '{name}' is out of range for "
                                    f"{prim}", lit.location)
                return None
            return ir.Default("float", number, lit.text)
        if prim == "decimal":
            if lit.kind not in ("int", "float"):
                return bad("a number")
            text = self._decimal_text(lit, name)
            return None if text is None else ir.Default("decimal", text, lit.text)
        if prim == "string":
            if lit.kind != "string":
                return bad("a string literal")
            assert isinstance(lit.value, str)  # the lexer decodes a string literal to str
            return ir.Default("string", lit.value, lit.text)
        if prim == "timestamp":
            if lit.kind == "epoch":
                return ir.Default("timestamp", 0, lit.text)
            if lit.kind == "utc":
                return ir.Default("utc", None, lit.text)
            if lit.kind == "int":
                assert isinstance(lit.value, int)  # the lexer decodes an integer literal to int
                if not 0 <= lit.value <= 0xFFFFFFFFFFFFFFFF:
                    self.reporter.error(f"default {lit.text} of field '{name}' is out of range "
                                        f"for timestamp (0..{0xFFFFFFFFFFFFFFFF})", lit.location)
                    return None
                return ir.Default("timestamp", lit.value, lit.text)
            if lit.kind == "names" and lit.text == "now":
                self.reporter.error("'now' is not a timestamp default; use 'utc' (the time of "
                                    "construction) or 'epoch'", lit.location)
                return None
            return bad("'epoch', 'utc' or nanoseconds")
        if prim == "uuid":
            if lit.kind == "uuid0":
                return ir.Default("uuid", str(uuidlib.UUID(int=0)), lit.text)
            if lit.kind in ("uuid1", "uuid4"):
                return ir.Default(lit.kind, None, lit.text)
            if lit.kind == "string":
                assert isinstance(lit.value, str)  # the lexer decodes a string literal to str
                text = lit.value
                if len(text) != 36 or any(text[i] != "-" for i in (8, 13, 18, 23)):
                    self.reporter.error(f"'{text}' is not a uuid; write "
                                        f"\"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\"", lit.location)
                    return None
                try:
                    return ir.Default("uuid", str(uuidlib.UUID(text)), lit.text)
                except ValueError:
                    self.reporter.error(f"'{text}' is not a uuid; write "
                                        f"\"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\"", lit.location)
                    return None
            return bad("'uuid0', 'uuid1', 'uuid4' or a uuid string")
        if prim == "bytes":
            self.reporter.error(f"field '{name}' is bytes; bytes cannot have a default",
                                lit.location)
            return None
        raise AssertionError(prim)

    def _decimal_text(self, lit: ast.Literal, name: str) -> Optional[str]:
        d = decimal.Decimal(str(lit.value) if lit.kind == "int" else lit.text)
        sign, digit_tuple, exp = d.as_tuple()
        assert isinstance(exp, int)
        exponent: int = exp
        digits = bytes(digit_tuple)
        # Bounded by the literal's length, never by the value it spells (`1e999999999`).
        if not any(digits):
            digits, exponent = b"\0", min(exponent, 0)
        else:
            if exponent < 0:
                # Trailing zeros after the point carry no value; drop them before the checks.
                zeros = len(digits) - len(digits.rstrip(b"\0"))
                drop = min(zeros, -exponent)
                digits, exponent = digits[:len(digits) - drop], exponent + drop
            elif len(digits) + exponent > 29:  # the largest decimal has 29 digits
                digits, exponent = b"\1" * 30, 0
        if -exponent > DECIMAL_MAX_SCALE:
            self.reporter.error(f"default {lit.text} of field '{name}' has more than "
                                f"{DECIMAL_MAX_SCALE} decimal places", lit.location)
            return None
        coefficient = int("".join(map(str, digits[:30]))) * 10 ** max(exponent, 0)
        if len(digits) > 29 or coefficient > DECIMAL_MAX:
            self.reporter.error(f"default {lit.text} of field '{name}' is out of range for "
                                f"decimal (at most 96 bits of digits)", lit.location)
            return None
        exponent = min(exponent, 0)
        text = str(coefficient).rjust(-exponent + 1, "0")
        if exponent < 0:
            text = text[:exponent] + "." + text[exponent:]
        return ("-" if sign and coefficient else "") + text

    def _enum_default(self, unit: _Unit, fd: ast.FieldDecl, v: ir.TypeRef) -> Optional[ir.Default]:
        lit = fd.default
        assert lit is not None  # called for the fields that have a default
        assert v.package is not None  # a reference to a named type has its package
        etype = self.enums.get((v.package, v.name))
        if etype is None:
            return None
        if lit.kind != "names":
            self.reporter.error(f"field '{fd.name}' of {v.kind} '{v.name}' needs a value such as "
                                f"'{v.name}.{etype.values[0].name if etype.values else 'VALUE'}',"
                                f" not '{lit.text}'", lit.location)
            return None
        if v.kind == "enum" and len(lit.names) > 1:
            self.reporter.error(f"field '{fd.name}' is an enum; '|' combines flags only",
                                lit.location)
            return None
        total = 0
        names = []
        for n in lit.names:
            parts = n.parts
            if len(parts) == 3:
                pkg_ok = parts[0] == v.package
                tname, vname = parts[1], parts[2]
            elif len(parts) == 2:
                pkg_ok = True  # `Enum.VALUE`: the field's own enum, wherever declared
                tname, vname = parts
            else:
                self.reporter.error(f"write the {v.kind} value with its type: "
                                    f"'{v.name}.{parts[0]}'", n.location)
                return None
            if not pkg_ok or tname != v.name:
                self.reporter.error(f"'{n.text}' is not a value of {v.kind} '{v.name}'",
                                    n.location)
                return None
            ev = etype.value(vname)
            if ev is None:
                self.reporter.error(f"{v.kind} '{v.name}' has no value '{vname}'", n.location)
                return None
            total |= ev.value
            names.append(vname)
        return ir.Default(v.kind, total, lit.text, tuple(names))


def zip_fields(fields: Tuple[ir.Field, ...], decls: List[ast.FieldDecl]):
    """Pairs IR fields with the declarations they came from (skips the `Reset` extras)."""
    by_name = {d.name: d for d in decls}
    for f in fields:
        if f.reset_of is None and f.name in by_name:
            yield f, by_name[f.name]


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def compile_schema(path: str, reporter: Reporter, include_dirs: Sequence[str] = (),
                   retained: Optional[List[object]] = None) -> Optional[ir.Schema]:
    """Parses, resolves and checks `path` and its imports. Returns None on errors. The
    syntax trees are appended to `retained` when it is given (the caller frees them, or
    lets the process end first), and freed on return otherwise."""
    # The compiler's objects form no garbage cycles worth collecting; the cyclic
    # collector's full passes over a growing heap would make big schemas superlinear.
    collecting = gc.isenabled()
    gc.disable()
    try:
        resolver = Resolver(reporter, include_dirs)
        if retained is not None:
            retained.append(resolver)
        root = resolver.load(path)
        if root is None:
            reporter.sort()
            return None
        # Resolve even after syntax errors, so one run reports the semantic errors too.
        schema = resolver.resolve(root)
    finally:
        if collecting:
            gc.enable()
    reporter.sort()
    if reporter.has_errors:
        return None
    return schema

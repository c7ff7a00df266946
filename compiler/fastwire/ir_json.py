"""The IR as JSON, for generators written as plugins in any language (docs/ir.md).

`to_json` and `from_json` are inverses: `from_json(to_json(s)) == s`.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

from . import ir, layouts, lower, plan


def _source(s: ir.SourceRef) -> Dict[str, Any]:
    return {"file": s.file, "line": s.line, "column": s.column}


def _ref(r: Optional[ir.TypeRef]) -> Optional[Dict[str, Any]]:
    if r is None:
        return None
    out: Dict[str, Any] = {"kind": r.kind, "name": r.name}
    if r.package is not None:
        out["package"] = r.package
    return out


def _ftype(t: ir.FieldType) -> Dict[str, Any]:
    out: Dict[str, Any] = {"value": _ref(t.value), "optional": t.optional,
                           "container": t.container}
    if t.size is not None:
        out["size"] = t.size
    if t.key is not None:
        out["key"] = _ref(t.key)
    return out


def _default(d: Optional[ir.Default]) -> Optional[Dict[str, Any]]:
    if d is None:
        return None
    value = d.value
    out: Dict[str, Any]
    if d.kind == "integer" or d.kind in ("enum", "flags", "timestamp"):
        # 64-bit values do not survive a JSON double in every language: also give text.
        out = {"kind": d.kind, "value": value, "value_text": str(value), "text": d.text}
    else:
        out = {"kind": d.kind, "value": value, "text": d.text}
    if d.names:
        out["names"] = list(d.names)
    return out


def _field(f: ir.Field) -> Dict[str, Any]:
    out = {
        "name": f.name, "type": _ftype(f.type), "default": _default(f.default),
        "key": f.key, "id": f.id, "hidden": f.hidden, "deprecated": f.deprecated,
        "declared_in": f.declared_in, "doc": f.doc, "source": _source(f.location),
    }
    if f.reset_of is not None:
        out["reset_of"] = f.reset_of
    return out


def _type(t: ir.NamedType) -> Dict[str, Any]:
    if isinstance(t, ir.VariantType):
        return {"kind": t.kind, "name": t.name,
                "alternatives": [_ftype(a) for a in t.alternatives],
                "hidden": t.hidden, "deprecated": t.deprecated, "doc": t.doc,
                "source": _source(t.location)}
    if isinstance(t, ir.EnumType):
        return {
            "kind": t.kind, "name": t.name, "base": t.base,
            "values": [{"name": v.name, "value": v.value, "value_text": str(v.value),
                        "hidden": v.hidden, "deprecated": v.deprecated, "doc": v.doc,
                        "source": _source(v.location)} for v in t.values],
            "hidden": t.hidden, "deprecated": t.deprecated, "doc": t.doc,
            "source": _source(t.location),
        }
    return {
        "kind": t.kind, "name": t.name, "type_number": t.type_number,
        "numbering": t.numbering, "base": _ref(t.base),
        "fields": [_field(f) for f in t.fields],
        "all_fields": [_field(f) for f in t.all_fields],
        "hidden": t.hidden, "deprecated": t.deprecated, "request": t.request,
        "response": _ref(t.response),
        "rejects": [{"type": _ref(r.type), "global": r.global_} for r in t.rejects],
        "doc": t.doc, "source": _source(t.location),
    }


def _wire(w: lower.WireType) -> Dict[str, Any]:
    out: Dict[str, Any] = {"kind": w.kind, "slot": w.slot, "final_size": w.final_size,
                           "final_min": w.final_min}
    for key in ("scalar", "ref", "collection", "length"):
        if getattr(w, key) is not None:
            out[key] = getattr(w, key)
    if w.element is not None:
        out["element"] = _wire(w.element)
    if w.key is not None:
        out["key"] = _wire(w.key)
    return out


def _literal(lit: Optional[lower.Literal]) -> Optional[Dict[str, Any]]:
    if lit is None:
        return None
    if lit.kind == "integer":
        out: Dict[str, Any] = {"kind": "integer", "value": lit.value,
                               "value_text": str(lit.value), "bits": lit.bits,
                               "signed": lit.signed}
        if lit.names:
            out["names"] = list(lit.names)
        return out
    if lit.kind == "float":
        return {"kind": "float", "value": lit.value, "bits": lit.bits,
                "raw_hex": f"{lit.raw:0{lit.bits // 4}x}"}
    if lit.kind == "decimal":
        return {"kind": "decimal", "coefficient_text": str(lit.coefficient), "scale": lit.scale,
                "negative": lit.negative}
    if lit.kind == "uuid":
        assert isinstance(lit.raw, bytes)
        return {"kind": "uuid", "bytes_hex": lit.raw.hex()}
    if lit.kind == "null":
        return {"kind": "null"}
    return {"kind": lit.kind, "value": lit.value}  # bool, string, computed


def _layout(s: lower.StructLayout) -> Dict[str, Any]:
    return {
        "body_size": s.body_size, "depth": s.depth, "final_min": s.final_min,
        "final_size": s.final_size, "keyed": s.keyed, "equality": list(s.equality),
        "fields": [{"name": f.name, "offset": f.offset, "slot": f.slot,
                    "final_offset": f.final_offset, "wire": _wire(f.wire),
                    "default": _literal(d)} for f, d in zip(s.fields, s.defaults)],
        "final_runs": [{"first": r.first, "count": r.count, "size": r.size,
                        "offsets": list(r.offsets)} for r in s.final_runs],
        "plan": plan.to_dict(s.plan),
    }


def to_dict(schema: ir.Schema, model: Optional[lower.WireModel] = None) -> Dict[str, Any]:
    model = model or lower.lower(schema)

    def typ(p: ir.Package, t: ir.NamedType) -> Dict[str, Any]:
        out = _type(t)
        if isinstance(t, ir.StructType):
            out["layout"] = _layout(model.struct(t.qualified_name))
        elif isinstance(t, ir.VariantType):
            out["layout"] = plan.variant_dict(model.variant(t.qualified_name), _wire)
        return out

    def protocol(p: ir.Package) -> Dict[str, Any]:
        layout = model.package(p.name)
        return {"emission_order": list(layout.emission_order), "sends": list(layout.sends),
                "unsendable": list(layout.unsendable),
                "import_closure": list(layout.imports)}

    variants = schema.has_variants  # version 4; a schema without is written as before
    return {
        "format": ir.IR_FORMAT,
        "version": ir.IR_VERSION if variants else ir.IR_VERSION_PLAIN,
        "layouts": layouts.to_dict(variants),
        "root": schema.root,
        "packages": [{
            "name": p.name, "domain": p.domain, "offset": p.offset,
            "version": None if p.version is None else {"major": p.version[0],
                                                       "minor": p.version[1]},
            "imports": list(p.imports), "path": p.path, "doc": p.doc,
            **({"options": dict(p.options)} if p.options else {}),  # only when set
            "types": [typ(p, t) for t in p.types],
            "layout": protocol(p),
        } for p in schema.packages],
    }


def to_json(schema: ir.Schema, model: Optional[lower.WireModel] = None) -> str:
    return json.dumps(to_dict(schema, model), indent=2, ensure_ascii=False) + "\n"


# -- reading it back (used by tests, and by Python plugins that want the objects) ------------

def _r_source(d) -> ir.SourceRef:
    return ir.SourceRef(d["file"], d["line"], d["column"])


def _r_ref(d) -> Optional[ir.TypeRef]:
    return None if d is None else _r_ref_of(d)


def _r_ref_of(d) -> ir.TypeRef:
    return ir.TypeRef(d["kind"], d["name"], d.get("package"))


def _r_default(d) -> Optional[ir.Default]:
    if d is None:
        return None
    value = d["value"]
    if "value_text" in d:
        value = int(d["value_text"])
    return ir.Default(d["kind"], value, d["text"], tuple(d.get("names", ())))


def _r_ftype(t) -> ir.FieldType:
    return ir.FieldType(_r_ref_of(t["value"]), t["optional"], t["container"], t.get("size"),
                        _r_ref(t.get("key")))


def _r_field(d) -> ir.Field:
    ftype = _r_ftype(d["type"])
    return ir.Field(d["name"], ftype, _r_default(d["default"]), d["key"], d["id"], d["hidden"],
                    d["deprecated"], d["declared_in"], d["doc"], _r_source(d["source"]),
                    d.get("reset_of"))


def _r_type(d, package: str) -> ir.NamedType:
    if d["kind"] == "variant":
        return ir.VariantType("variant", d["name"], package,
                              tuple(_r_ftype(a) for a in d["alternatives"]), d["hidden"],
                              d["deprecated"], d["doc"], _r_source(d["source"]))
    if d["kind"] in ("enum", "flags"):
        values = tuple(ir.EnumValue(v["name"], int(v["value_text"]), v["hidden"],
                                    v["deprecated"], v["doc"], _r_source(v["source"]))
                       for v in d["values"])
        return ir.EnumType(d["kind"], d["name"], package, d["base"], values, d["hidden"],
                           d["deprecated"], d["doc"], _r_source(d["source"]))
    return ir.StructType(
        d["kind"], d["name"], package, d["type_number"], d["numbering"], _r_ref(d["base"]),
        tuple(_r_field(f) for f in d["fields"]), tuple(_r_field(f) for f in d["all_fields"]),
        d["hidden"], d["deprecated"], d["request"], _r_ref(d["response"]),
        tuple(ir.Reject(_r_ref_of(r["type"]), r["global"]) for r in d["rejects"]),
        d["doc"], _r_source(d["source"]))


def from_dict(d: Dict[str, Any]) -> ir.Schema:
    if d.get("format") != ir.IR_FORMAT:
        raise ValueError("not a fastwire IR document")
    if d.get("version") not in ir.IR_READABLE:
        raise ValueError(f"unsupported IR version {d.get('version')} (this is {ir.IR_VERSION})")
    packages = []
    for p in d["packages"]:
        v = p["version"]
        packages.append(ir.Package(
            p["name"], p["domain"], p["offset"], None if v is None else (v["major"], v["minor"]),
            tuple(p["imports"]), tuple(_r_type(t, p["name"]) for t in p["types"]), p["path"],
            p["doc"], tuple(p.get("options", {}).items())))
    return ir.Schema(d["root"], tuple(packages))


def from_json(text: str) -> ir.Schema:
    return from_dict(json.loads(text))

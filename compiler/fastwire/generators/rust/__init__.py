"""The Rust generator: a module `<package>.rs` per package on the `fastwire` crate (rust/),
beside the others (`super::<package>`; rust/fastwire-build runs it from a build.rs).
Enums and flags: types.py; structs, `visit_struct` and --proto's `Message`: structs.py;
`fastwire::Struct`, the codec plan's steps as straight-line calls: codec.py. The output
is rustfmt-clean (rustfmt.toml)."""

from __future__ import annotations

from typing import Dict

from ... import lower
from ..common import naming
from ..options import Options
from .structs import Structs
from .types import module_name

__all__ = ["generate"]


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    # The file is named as the module (a package `type` is module `type_` in `type_.rs`).
    return {naming.file_name("rust", module_name(p.name), "module"):
            Structs(p, model, options).render() for p in model.schema.packages}

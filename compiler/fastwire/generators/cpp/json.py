"""The JSON header `p_json.h` (--json): the runtime's generic JSON writer and reader
(cpp/include/fastwire/json.h, json_reader.h) follow each struct's struct_schema, so the
header only includes them."""

from __future__ import annotations

from ... import ir
from ..options import Options
from ..printer import Printer
from .names import preamble

_JSON_ABOUT = """\
// JSON for the {name} package's types:
//
//   std::string text = fastwire::json::to_json(value);        // compact; (value, true): pretty
//   fastwire::json::reader reader;                            // reuse it
//   fastwire::json::result r = reader.read(text, value);      // r.message() on error
//
// The mapping is generic (cpp/include/fastwire/json.h): it follows each struct's
// fastwire::struct_schema, so nothing per type is needed here."""


def json_header(options: Options, package: ir.Package) -> str:
    p = Printer(options.indent, options.tabs)
    preamble(p, package, f"{package.name}_json.h", _JSON_ABOUT.format(name=package.name))
    p.print("""

        #include <fastwire/json.h>
        #include <fastwire/json_reader.h>

        #include "$name$.h"
    """, name=package.name)
    for imp in package.imports:
        p.print('#include "$imp$_json.h"', imp=imp)
    return p.text()

"""Names per language, as tables: reserved words, how a clash is escaped, case rules and
file names. A new language adds one row to each table (docs/adding-a-language.md).

    naming.ident("cpp", "class")          # 'class_'
    naming.file_name("python", "proto", "module")   # 'proto_fbe.py'
    naming.module_name("python", "json")            # 'json_fbe'
"""

from __future__ import annotations

import keyword
import re
from typing import Dict, FrozenSet

# Words a generated identifier must not be, per language.
RESERVED: Dict[str, FrozenSet[str]] = {
    "cpp": frozenset("""
        alignas alignof and and_eq asm auto bitand bitor bool break case catch char class
        compl const constexpr const_cast continue decltype default delete do double
        dynamic_cast else enum explicit export extern false float for friend goto if inline
        int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private
        protected public register reinterpret_cast return short signed sizeof static
        static_assert static_cast struct switch template this thread_local throw true try
        typedef typeid typename union unsigned using virtual void volatile wchar_t while xor
        xor_eq char8_t char16_t char32_t concept requires co_await co_return co_yield
        consteval constinit NULL errno assert std fastwire""".split()),
    "python": frozenset(keyword.kwlist),
    "go": frozenset("""
        break case chan const continue default defer else fallthrough for func go goto if
        import interface map package range return select struct switch type var bool byte
        complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string
        uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close
        complex copy delete imag len make max min new panic print println real recover
        fw bytes cmp math strconv time a b c d e f i k m n p q r s v w x pos stored ok body
        slot base end start buf data lim full err typ msg known rest set blk""".split()),
    # Ruby's keywords, and the methods of Object a field's accessor must not replace.
    "ruby": frozenset("""
        BEGIN END __ENCODING__ __FILE__ __LINE__ alias and begin break case class def
        defined do else elsif end ensure false for if in module next nil not or redo rescue
        retry return self super then true undef unless until when while yield
        hash send object_id method methods freeze dup clone inspect to_s display tap
        itself extend instance_variables initialize public_send format raise require
        loop puts print p fail""".split()),
    "csharp": frozenset("""
        abstract as base bool break byte case catch char checked class const continue decimal
        default delegate do double else enum event explicit extern false finally fixed float for
        foreach goto if implicit in int interface internal is lock long namespace new null object
        operator out override params private protected public readonly ref return sbyte sealed
        short sizeof stackalloc static string struct switch this throw true try typeof uint ulong
        unchecked unsafe ushort using virtual void volatile while global Fastwire System Fbe
        FbeEnums FbePackage Instance""".split()),
    # JavaScript's reserved words (TypeScript's are the same), the names a generated
    # class's own members take, and the globals generated types refer to.
    "typescript": frozenset("""
        break case catch class const continue debugger default delete do else enum export
        extends false finally for function if import in instanceof new null return super
        switch this throw true try typeof var void while with implements interface let
        package private protected public static yield await arguments eval undefined NaN
        Infinity constructor prototype equals toJson fromJson toString valueOf rt
        Map Set Array Object String Number Boolean BigInt Uint8Array Math JSON Error
        Promise Symbol Date""".split()),
    "rust": frozenset("""
        as async await break const continue crate dyn else enum extern false fn for if impl
        in let loop match mod move mut pub ref return self Self static struct super trait
        true type unsafe use where while abstract become box do final macro override priv
        typeof unsized virtual yield try gen union fastwire std core alloc Option Some None
        Result Ok Err Vec String Box Default""".split()),
    "java": frozenset("""
        abstract assert boolean break byte case catch char class const continue default do
        double else enum extends final finally float for goto if implements import
        instanceof int interface long native new package private protected public return
        short static strictfp super switch synchronized this throw throws transient try void
        volatile while true false null var yield record sealed permits _ CODEC TYPE Codec
        Fields""".split()),
    "kotlin": frozenset("""
        as break class continue do else false for fun if in interface is null object package
        return super this throw true try typealias typeof val var when while CODEC TYPE
        Codec Fields""".split()),
}
RESERVED["javascript"] = RESERVED["typescript"]

# How a reserved name is escaped: this suffix is appended (until the name is free).
ESCAPE_SUFFIX: Dict[str, str] = {
    "cpp": "_", "python": "_", "go": "_", "ruby": "_", "csharp": "_", "typescript": "_",
    "javascript": "_", "rust": "_", "java": "_", "kotlin": "_"
}

# Generated file names per language and role; {package} is the schema package's name.
# One place per language, so a renaming scheme changes one row. Python modules end in
# `_fbe` (as protobuf's end in `_pb2`): a package named `json`, `proto` or `class` must not
# hide the standard library or an installed distribution, nor be a keyword.
FILES: Dict[str, Dict[str, str]] = {
    "cpp": {"domain": "{package}.h", "models": "{package}_models.h",
            "json": "{package}_json.h", "protocol": "{package}_protocol.h",
            "final_protocol": "{package}_final_protocol.h"},
    "python": {"module": "{package}_fbe.py"},
    "go": {"module": "{package}.fbe.go"},
    "ruby": {"module": "{package}_fbe.rb"},
    "csharp": {"module": "{package}.cs"},
    "typescript": {"module": "{package}.ts"},
    "javascript": {"module": "{package}.js", "types": "{package}.d.ts"},
    "rust": {"module": "{package}.rs"},
    # One folder per package (the domain and the package name), one file per type.
    "java": {"type": "{package}/{type}.java"},
    "kotlin": {"type": "{package}/{type}.kt"},
}


def ident(language: str, name: str) -> str:
    """A schema name as an identifier of `language`: escaped when reserved."""
    reserved = RESERVED[language]
    while name in reserved:
        name += ESCAPE_SUFFIX[language]
    return name


def file_name(language: str, package: str, role: str) -> str:
    return FILES[language][role].format(package=package)


def module_name(language: str, package: str) -> str:
    """The importable name of a package's module (its file name without the extension)."""
    return file_name(language, package, "module").rsplit(".", 1)[0]


# ---- case rules -------------------------------------------------------------------------

# Where snake() breaks a name: before the last capital of a run followed by a small
# letter (HTTP|Server), and between a small letter or digit and a capital (order|Message).
# Lookarounds of one character each: linear. `([A-Z]+)([A-Z][a-z])` backtracked over
# every run of capitals, quadratic in a long one (a 64 KiB name took minutes; issue 37).
_RUN_END = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])")
_WORD_END = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def snake(name: str) -> str:
    """`OrderMessage` -> `order_message`, `HTTPServer` -> `http_server`."""
    return _WORD_END.sub("_", _RUN_END.sub("_", name)).lower()


def pascal(name: str) -> str:
    """`order_message` -> `OrderMessage`; names already in Pascal case stay."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def camel(name: str) -> str:
    """`order_message` -> `orderMessage`."""
    p = pascal(name)
    return p[:1].lower() + p[1:]

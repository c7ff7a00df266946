"""The `fastwire` command line.

Two spellings of one job:

    fastwire compile schemas/proto.fbe --lang cpp --final -o gen/     # fastwire's own
    fastwire --cpp --final --input=schemas/proto.fbe --output=gen/    # the reference's (fbec)

Exit status: 0 success, 1 schema errors, 2 usage errors, 70 an internal error (a bug).
"""

from __future__ import annotations

import argparse
import difflib
import gc
import os
import re
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from . import __version__, compat, ir, syntax
from .diagnostics import Location, Reporter, SourceFile
from .generators import GENERATORS, LANGUAGES, PLANNED, REFERENCE_FLAGS, RENDERERS, Options
from .lower import lower
from .resolver import compile_schema

EXIT_OK, EXIT_SCHEMA, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70

# Aliases `--lang` accepts besides the generators' own names.
LANGUAGE_ALIASES = {"c++": "cpp", "js": "javascript", "ts": "typescript"}
# The reference compiler's language flags and the generator each one selects: one flag per
# language `--lang` knows, plus the registry's own flags (fbec's --c++ among them; the
# registry, fastwire.generators.LANGUAGES, says which).
REFERENCE_LANGUAGES = dict(sorted({**{lang: lang for lang in PLANNED}, **REFERENCE_FLAGS}.items()))
# Reference flags accepted and ignored, with the reason told to the user.
IGNORED_FLAGS = {"cpp_logging": ("--cpp-logging", "fastwire's C++ code has no logging hooks")}
COMMANDS = ("compile", "check")
# Commands that run on the Python runtime's dynamic codec: the runtime provides them
# (fastwire_runtime.tools), as entry points of this group that `fastwire` looks up by name;
# the compiler imports no runtime. Each is a callable taking the command line, the
# command's name first, and returning the exit status.
RUNTIME_COMMANDS = ("decode", "encode", "explain")
COMMAND_GROUP = "fastwire.commands"
TOOL_COMMANDS = RUNTIME_COMMANDS + ("compat",)


class UsageError(Exception):
    pass


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump
        raise UsageError(message)


def _common_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--final", action="store_true", help="also generate the final (compact) format")
    p.add_argument("--json", action="store_true", help="also generate JSON conversion")
    p.add_argument("--proto", action="store_true", help="also generate the Sender/Receiver protocol")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing but diagnostics")
    p.add_argument("-n", "--indent", type=int, default=4, metavar="N",
                   help="indent generated code by N spaces (default 4)")
    p.add_argument("-t", "--tabs", action="store_true", help="indent generated code with tabs")
    p.add_argument("--go-import", default="", metavar="PATH",
                   help="Go: import path of the output folder (as protoc's go_package); "
                        "overrides the schema's 'option go_import'; default fastwire.gen")
    # Not "--cpp-…": argparse would take the reference's --cpp, given to `compile`, for its
    # abbreviation.
    p.add_argument("--pmr", dest="cpp_pmr", action="store_true",
                   help="C++: std::pmr strings and collections, and structs that take an "
                        "allocator, so a value read into a std::pmr::monotonic_buffer_resource "
                        "(an arena) allocates from its blocks (docs/cpp/arena.md)")
    p.add_argument("-I", "--include", action="append", default=[], metavar="DIR",
                   help="also look for imported schemas in DIR")


def _fastwire_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(prog="fastwire", description="Compile Fast Binary Encoding schemas.")
    p.add_argument("-V", "--version", action="version", version=f"fastwire {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_ArgumentParser)
    c = sub.add_parser("compile", help="check schemas and generate code or the IR")
    c.add_argument("schemas", nargs="+", metavar="SCHEMA")
    c.add_argument("-o", "--output", default=".", metavar="DIR", help="output folder (default .)")
    c.add_argument("--emit", action="append", default=[], choices=sorted(GENERATORS),
                   help="write an artifact: ir-json writes the resolved schema as JSON")
    c.add_argument("--lang", action="append", default=[], metavar="LANG",
                   help=f"generate code for LANG; available today: {', '.join(_available())}; "
                        f"planned: {', '.join(_planned_only())}")
    c.add_argument("--print-outputs", action="store_true",
                   help="print the files that would be written, one a line; write nothing")
    c.add_argument("--depfile", metavar="FILE",
                   help="also write a Make-style depfile: the outputs depend on every schema "
                        "read (for build systems)")
    _common_output_options(c)
    k = sub.add_parser("check", help="check schemas; print diagnostics only")
    k.add_argument("schemas", nargs="+", metavar="SCHEMA")
    k.add_argument("-I", "--include", action="append", default=[], metavar="DIR")
    for name, what in (("decode", "binary FBE to JSON, without generated code"),
                       ("encode", "JSON to binary FBE, without generated code"),
                       ("explain", "annotate binary FBE byte by byte")):
        sub.add_parser(name, help=f"{what}; comes with the Python runtime (docs/tools.md; "
                                  f"'fastwire {name} --help')")
    sub.add_parser("compat", help="check that a new version of a schema keeps its readers "
                                  "(docs/tools.md; 'fastwire compat --help')")
    return p


def _reference_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog="fastwire", description="Compile Fast Binary Encoding schemas (fbec-compatible "
        "flags). See also 'fastwire compile --help'.")
    p.add_argument("-V", "--version", action="version", version=f"fastwire {__version__}")
    p.add_argument("-i", "--input", required=True, metavar="INPUT", help="input schema")
    p.add_argument("-o", "--output", default=".", metavar="OUTPUT", help="output folder")
    for flag in REFERENCE_LANGUAGES:
        p.add_argument(f"--{flag}", action="store_true", dest=f"lang_{flag.replace('+', 'p')}",
                       help=f"generate {PLANNED[REFERENCE_LANGUAGES[flag]]} code")
    for dest, (flag, why) in IGNORED_FLAGS.items():
        p.add_argument(flag, action="store_true", dest=dest, help=f"accepted and ignored ({why})")
    _common_output_options(p)
    return p


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parses either spelling into one namespace: schemas, output, emit, langs, options."""
    try:
        return _parse_arguments(list(argv))
    except UsageError as err:
        raise UsageError(_explain(str(err), list(argv))) from None


def _parse_arguments(argv: List[str]) -> argparse.Namespace:
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        raise UsageError(_unknown_command(argv))
    if argv and argv[0] in COMMANDS:
        ns = _fastwire_parser().parse_args(argv)
        if ns.command == "check":
            ns.output, ns.emit, ns.lang = None, [], []
            ns.print_outputs, ns.depfile = False, None
            ns.final = ns.json = ns.proto = ns.quiet = ns.tabs = False
            ns.indent = 4
        return ns
    if not argv or argv[0] in ("-h", "--help") or argv[0] in ("-V", "--version") and len(argv) == 1:
        if argv and argv[0] in ("-V", "--version"):
            _fastwire_parser().parse_args(argv)
        _fastwire_parser().print_help()
        print("\nThe reference compiler's flags also work: fastwire --cpp --input=F --output=D "
              "[--final] [--json] [--proto]")
        raise SystemExit(EXIT_OK if argv else EXIT_USAGE)
    ns = _reference_parser().parse_args(argv)
    ns.command = "compile"
    ns.print_outputs, ns.depfile = False, None
    ns.schemas = [ns.input]
    ns.emit = []
    ns.lang = list(dict.fromkeys(lang for flag, lang in REFERENCE_LANGUAGES.items()
                                 if getattr(ns, f"lang_{flag.replace('+', 'p')}")))
    if not ns.lang:
        raise UsageError("nothing to generate: give a language flag such as --cpp, or use "
                         "'fastwire compile SCHEMA --emit ir-json'")
    ns.ignored = [(flag, why) for dest, (flag, why) in IGNORED_FLAGS.items() if getattr(ns, dest)]
    return ns


# ---- forgiving the usual mistakes ------------------------------------------------------------

def _available() -> List[str]:
    """The languages a generator exists for today."""
    return sorted(lang for lang in PLANNED if lang in GENERATORS)


def _planned_only() -> List[str]:
    return sorted(lang for lang in PLANNED if lang not in GENERATORS)


def _closest(word: str, candidates: Sequence[str]) -> Optional[str]:
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def _unknown_command(argv: List[str]) -> str:
    """The first word is neither a command nor a flag: a typo, or a schema given first."""
    word = argv[0]
    guess = _closest(word, COMMANDS + TOOL_COMMANDS)
    if guess:
        return f"unknown command '{word}': did you mean '{guess}'?"
    if word.endswith(".fbe") or os.path.isfile(word):
        return (f"'{word}' is not a command: did you mean 'fastwire compile {word} --lang "
                f"LANG' or 'fastwire check {word}'?")
    return (f"unknown command '{word}' (commands: {', '.join(COMMANDS + TOOL_COMMANDS)}; or the reference "
            f"compiler's flags: fastwire --cpp --input=SCHEMA --output=DIR)")


def _option_strings(parser: argparse.ArgumentParser) -> List[str]:
    return [o for action in parser._actions for o in action.option_strings]


def _explain(message: str, argv: List[str]) -> str:
    """argparse's message, with what the user probably meant."""
    compiling = bool(argv) and argv[0] == "compile"
    prefix = "unrecognized arguments: "
    if message.startswith(prefix):
        hints = []
        parser = _fastwire_parser() if compiling else _reference_parser()
        if compiling:
            sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            parser = sub.choices["compile"]
        known = _option_strings(parser)
        for arg in message[len(prefix):].split():
            flag = arg.split("=", 1)[0]
            lang = flag[2:] if flag.startswith("--") else None
            lang = LANGUAGE_ALIASES.get(lang or "", lang)
            if compiling and lang in PLANNED:
                hints.append(f"'{arg}' is the reference compiler's spelling: did you mean "
                             f"'--lang {lang}'?")
            elif flag.startswith("-") and _closest(flag, known):
                hints.append(f"unknown option '{arg}': did you mean '{_closest(flag, known)}'?")
            elif not flag.startswith("-") and not compiling:
                hints.append(f"unexpected '{arg}': the reference flags take the schema as "
                             f"--input={arg}")
            else:
                hints.append(f"unknown argument '{arg}'")
        return "; ".join(hints)
    if "required: -i/--input" in message:
        schemas = [a for a in argv if not a.startswith("-") and a.endswith(".fbe")]
        if schemas:
            return (f"{message} (did you mean '--input={schemas[0]}', or 'fastwire compile "
                    f"{schemas[0]} --lang LANG'?)")
        known = _option_strings(_reference_parser())
        for arg in argv:
            flag = arg.split("=", 1)[0]
            if flag.startswith("-") and not any(k.startswith(flag) for k in known):
                guess = _closest(flag, known)
                return f"unknown option '{flag}'" + (f": did you mean '{guess}'?" if guess else
                                                     " (see 'fastwire --help')")
    return message


def _print_diagnostics(reporter: Reporter) -> None:
    for d in reporter.diagnostics:
        print(d.render(), file=sys.stderr)
    n = len(reporter.errors)
    if n:
        print(f"{n} error{'s' if n != 1 else ''} generated.", file=sys.stderr)


# A Go import path as the go command accepts one: '/'-separated elements, none empty, '.'
# or '..', of ASCII letters, digits and -._~ (no element starting with '.').
_GO_IMPORT = syntax.GO_IMPORT_PATH


def run(argv: Sequence[str], retained: Optional[List[object]] = None) -> int:
    """Runs the command line `argv`; returns the exit status. What each schema's compilation
    built is appended to `retained`, when given, to be freed by the caller (or never)."""
    if argv and argv[0] == "compat":  # fastwire/compat.py
        return compat.run(argv[1:])
    if argv and argv[0] in RUNTIME_COMMANDS:
        return _runtime_command(argv)
    try:
        ns = parse_arguments(argv)
    except UsageError as err:
        print(f"fastwire: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    if ns.indent < 0 or ns.indent > 16:
        print("fastwire: error: --indent must be between 0 and 16", file=sys.stderr)
        return EXIT_USAGE
    go_import = getattr(ns, "go_import", "")
    if go_import and not _GO_IMPORT.fullmatch(go_import):
        print(f"fastwire: error: --go-import: {go_import!r} is not a Go import path "
              f"({syntax.GO_IMPORT_PATH_RULE})", file=sys.stderr)
        return EXIT_USAGE

    langs: List[str] = []
    for lang in ns.lang:
        lang = LANGUAGE_ALIASES.get(lang, lang)
        if lang not in PLANNED:
            print(f"fastwire: error: unknown language '{lang}' (known: "
                  f"{', '.join(sorted(PLANNED))})", file=sys.stderr)
            return EXIT_USAGE
        if lang not in GENERATORS:
            print(f"fastwire: error: the {PLANNED[lang]} generator is not available yet "
                  f"(available: {', '.join(_available())})", file=sys.stderr)
            return EXIT_SCHEMA
        langs.append(lang)
    targets = list(dict.fromkeys(ns.emit + langs))
    if ns.command == "compile" and not targets:
        print("fastwire: error: nothing to generate: add --emit ir-json or --lang LANG",
              file=sys.stderr)
        return EXIT_USAGE

    for flag, why in getattr(ns, "ignored", []):
        print(f"fastwire: warning: {flag} is ignored ({why})", file=sys.stderr)

    status = EXIT_OK
    written: List[str] = []  # every output, once, across all the schemas
    seen = set(written)  # the same, to look up (a language writes a file per type: 50,000 of them)
    inputs: List[str] = []  # every schema read, imports included
    options = Options(final=ns.final, json=ns.json, proto=ns.proto, indent=ns.indent,
                      tabs=ns.tabs, go_import=go_import, cpp_pmr=getattr(ns, "cpp_pmr", False))
    for path in ns.schemas:
        reporter = Reporter()
        schema = compile_schema(path, reporter, ns.include, retained)
        _print_diagnostics(reporter)
        if schema is None:
            status = EXIT_SCHEMA
            continue
        inputs.extend(p.path for p in schema.packages if p.path not in inputs)
        if not targets:
            continue  # `check`: nothing to render, so nothing to lower (a third of its time)
        model = lower(schema)
        for target in targets:
            if target in LANGUAGES and _refused(LANGUAGES[target].refusals(model)):
                status = EXIT_SCHEMA
                continue
            for rel, content in RENDERERS[target](model, options).items():
                out = os.path.join(ns.output, rel)
                if out in seen:
                    continue  # an import shared by several schemas: generated once
                seen.add(out)
                written.append(out)
                if ns.print_outputs:
                    print(out)
                    continue
                try:
                    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
                    changed = _write_if_changed(out, content)
                except OSError as err:
                    print(f"fastwire: error: cannot write '{out}': {err.strerror or err}",
                          file=sys.stderr)
                    return EXIT_SCHEMA
                if not ns.quiet:
                    print(f"fastwire: {'wrote' if changed else 'unchanged:'} {out}", file=sys.stderr)
    if ns.depfile and not ns.print_outputs and status == EXIT_OK:
        try:
            os.makedirs(os.path.dirname(ns.depfile) or ".", exist_ok=True)
            _write_if_changed(ns.depfile, _depfile(written, inputs))
        except OSError as err:
            print(f"fastwire: error: cannot write '{ns.depfile}': {err.strerror or err}",
                  file=sys.stderr)
            return EXIT_SCHEMA
    return status


def _refused(refusals: List[Tuple[str, ir.SourceRef]]) -> bool:
    """Prints, as schema errors at their declarations, what a generator does not render
    yet; True when there is any."""
    reporter = Reporter()
    sources: Dict[str, SourceFile] = {}
    for message, at in refusals:
        source = sources.get(at.file)
        if source is None:
            try:
                with open(at.file, encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                text = ""
            source = sources[at.file] = SourceFile(at.file, text)
        name = re.match(r"\w*", source.line_text(at.line)[at.column - 1:])
        reporter.error(message, Location(source, at.line, at.column,
                                          max(1, len(name.group()) if name else 1)))
    _print_diagnostics(reporter)
    return bool(refusals)


def _runtime_command(argv: Sequence[str]) -> int:
    """decode, encode or explain: the command an installed runtime registers under its name
    in COMMAND_GROUP (fastwire-fbe-runtime's, or another distribution's)."""
    import importlib.metadata  # here: compile and check do without its import time

    name = argv[0]
    found = list(importlib.metadata.entry_points(group=COMMAND_GROUP, name=name))
    if not found:
        print(f"fastwire {name}: error: this command comes with the Python runtime: pip install "
              f"fastwire-fbe-runtime (or 'fastwire-fbe[tools]'); without installing it, "
              f"'python3 -m fastwire_runtime.tools {name} ...'", file=sys.stderr)
        return EXIT_SCHEMA
    try:
        command = found[0].load()
    except Exception as exc:  # noqa: BLE001 - a broken installation, said in one line
        print(f"fastwire {name}: error: cannot load {found[0].value} ({type(exc).__name__}: {exc})",
              file=sys.stderr)
        return EXIT_SCHEMA
    return int(command(list(argv)))


def _depfile(outputs: List[str], inputs: List[str]) -> str:
    def esc(path: str) -> str:
        return path.replace("\\", "/").replace(" ", "\\ ").replace("#", "\\#")
    return f"{' '.join(esc(o) for o in outputs)}: {' '.join(esc(i) for i in inputs)}\n"


def _write_if_changed(path: str, content: str) -> bool:
    """Leaves unchanged files alone so build systems do not rebuild what did not change.
    True when the file was written."""
    try:
        with open(path, "r", encoding="utf-8", newline="") as fh:
            if fh.read() == content:
                return False
    except (OSError, UnicodeDecodeError):
        pass
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(content)
    return True


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line. Called without `argv` (the `fastwire` command, `python -m
    fastwire`) it ends the process itself, without freeing what it built: the syntax
    trees and the IR of a 10 MB schema are millions of objects, and freeing them one by
    one took a sixth of `fastwire check`'s time. Called with `argv`, it returns."""
    if argv is not None:
        return _main(argv, None)
    # Nor does it collect cycles: it makes none worth the collector's passes over a heap
    # that only grows (each pass a walk over every object, so superlinear in total).
    gc.disable()
    retained: List[object] = []
    status = _main(sys.argv[1:], retained)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(status)


def _main(argv: Sequence[str], retained: Optional[List[object]]) -> int:
    try:
        return run(argv, retained)
    except SystemExit as e:
        return int(e.code or 0) if not isinstance(e.code, str) else EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the one place a bug becomes a report, not a trace
        print(f"fastwire: internal error: {type(exc).__name__}: {exc}. This is a bug in "
              f"fastwire; please report it with the schema that caused it.", file=sys.stderr)
        return EXIT_INTERNAL

"""Per-format parsers for the config miner: text -> leaves ``(parts, value, line)``.

``parts`` is the key path (``str`` for mapping keys, ``int`` for list indexes), ``value`` is the
scalar as text or, for a list of scalars, the list of item texts, ``line`` is 1-based.  Every
parser raises :class:`MineError` with a one-line reason on a parse failure.

PyYAML and python-dotenv load when a file of theirs is parsed, not with the module: the
post-commit path imports every miner to ask which paths it reads, and a commit that touches no
YAML or .env file should not pay for them (PyYAML alone is ~20 ms of a 0.5 s budget).
"""

from __future__ import annotations

import configparser
import datetime
import io
import json
import re
import tomllib
from typing import TYPE_CHECKING

from repomem.miners._base import MineError

if TYPE_CHECKING:
    import yaml

Leaf = tuple[tuple, "str | list[str]", int]


def _one_line(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class _Raw(str):
    """A TOML/JSON number kept as written (``1.50`` stays ``1.50``, not ``1.5``)."""


def _scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    return str(v)


def _walk(obj, parts: tuple, out: list) -> None:
    """Leaves of parsed data; a list of scalars is one leaf, other lists are indexed."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            _walk(v, parts + (str(k),), out)
    elif isinstance(obj, list):
        if not parts and not obj:
            return
        if parts and all(not isinstance(i, (dict, list)) for i in obj):
            out.append((parts, [_scalar(i) for i in obj]))
        else:
            for i, v in enumerate(obj):
                _walk(v, parts + (i,), out)
    elif parts:
        out.append((parts, _scalar(obj)))


def _longest_prefix(where: dict[tuple, int], parts: tuple) -> int:
    """Line of the deepest located part of the path (an inline table's members: its line)."""
    return next((where[parts[:n]] for n in range(len(parts), 0, -1) if parts[:n] in where), 1)


# ---- TOML --------------------------------------------------------------------------------------
_TKEY = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_THEADER = re.compile(rf"^\s*(\[\[?)\s*({_TKEY}(?:\s*\.\s*{_TKEY})*)\s*\]\]?")
_TASSIGN = re.compile(rf"^\s*({_TKEY}(?:\s*\.\s*{_TKEY})*)\s*=")


def _tsplit(dotted: str) -> list[str]:
    return [p.strip()[1:-1] if p.strip()[:1] in "\"'" else p.strip() for p in re.findall(_TKEY, dotted)]


def _toml_lines(lines: list[str]) -> dict[tuple, int]:
    """Map every table header and ``key =`` line to its full key path (arrays of tables indexed).

    tomllib gives no positions, so replay the headers: ``[[servers]]`` opens ``servers.N``.
    """
    where: dict[tuple, int] = {}
    aot: dict[tuple, int] = {}
    table: tuple = ()

    def resolve(parts: list[str]) -> tuple:
        out: list = []
        for p in parts:
            out.append(p)
            if tuple(out) in aot:
                out.append(aot[tuple(out)] - 1)
        return tuple(out)

    for n, line in enumerate(lines, 1):
        m = _THEADER.match(line)
        if m:
            parts = _tsplit(m.group(2))
            if m.group(1) == "[[":
                base = resolve(parts[:-1]) + (parts[-1],)
                aot[base] = aot.get(base, 0) + 1
                table = base + (aot[base] - 1,)
            else:
                table = resolve(parts)
            where.setdefault(table, n)
            continue
        m = _TASSIGN.match(line)
        if m:
            where.setdefault(table + tuple(_tsplit(m.group(1))), n)
    return where


def parse_toml(text: str) -> list[Leaf]:
    try:
        data = tomllib.loads(text, parse_float=_Raw)  # 1.50 stays 1.50
    except (tomllib.TOMLDecodeError, ValueError) as e:
        raise MineError(f"TOML: {_one_line(e)}") from None
    where = _toml_lines(text.splitlines())
    leaves: list = []
    _walk(data, (), leaves)
    return [(parts, value, _longest_prefix(where, parts)) for parts, value in leaves]


# ---- JSON --------------------------------------------------------------------------------------
_JTOK = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def _json_lines(text: str) -> dict[tuple, int]:
    """Line of every key and array element, by replaying the (already validated) token stream."""
    where: dict[tuple, int] = {}
    frames: list[list] = []  # [kind "{" or "[", current key or index, expecting a key]
    line, last = 1, 0
    for m in _JTOK.finditer(text):
        line += text.count("\n", last, m.start())
        last = m.start()
        t = m.group(0)
        top = frames[-1] if frames else None
        if t == "," and top:
            if top[0] == "{":
                top[2] = True
            else:
                top[1] += 1
        elif t in "}]" and top:
            frames.pop()
        elif t == ":":
            pass
        elif top and top[0] == "{" and top[2]:
            top[1], top[2] = json.loads(t), False
            where.setdefault(tuple(f[1] for f in frames), line)
        else:
            if top and top[0] == "[":
                where.setdefault(tuple(f[1] for f in frames), line)
            if t in "{[":
                frames.append([t, None, True] if t == "{" else [t, 0, False])
    return where


def parse_json(text: str) -> list[Leaf]:
    try:
        data = json.loads(text, parse_float=_Raw, parse_int=_Raw)
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise MineError(f"JSON: {_one_line(e)}") from None
    leaves: list = []
    _walk(data, (), leaves)
    where = _json_lines(text)
    return [(parts, value, _longest_prefix(where, parts)) for parts, value in leaves]


# JSON with comments and trailing commas, as TypeScript, VS Code and ESLint read their own
# files (tsconfig.json, devcontainer.json, .eslintrc.json, *.jsonc): each comment becomes
# spaces and newlines, each trailing comma a space, so every line keeps its number.
_BLOCK_COMMENT = r"/\*(?:[^*]|\*(?!/))*\*/"  # not lazy: it must not reach past its own */
_JSONC = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|' + _BLOCK_COMMENT
                    + r"|,(?=(?:\s|//[^\n]*|" + _BLOCK_COMMENT + r")*[}\]])")


def _uncomment(m: re.Match) -> str:
    t = m.group(0)
    return t if t.startswith('"') else re.sub(r"[^\n]", " ", t)


def parse_jsonc(text: str) -> list[Leaf]:
    return parse_json(_JSONC.sub(_uncomment, text))


# ---- YAML --------------------------------------------------------------------------------------
_BOOL_TRUE = {"true", "yes", "on", "y"}


def _yscalar(node: yaml.ScalarNode) -> str:
    tag = node.tag.rsplit(":", 1)[-1]
    if tag == "bool":
        return "true" if node.value.lower() in _BOOL_TRUE else "false"
    if tag == "null":
        return "null"
    return node.value  # as written: "3.10" stays "3.10", not the float 3.1


# A document's size once its aliases are expanded is what walking it costs: an alias bomb of a
# few hundred bytes (each level repeating the one below ten times) expands to millions of
# nodes.  The size is counted on the composed graph (shared nodes counted once per use,
# memoised per node, so counting is linear in the file) before anything is walked.
MAX_EXPANDED = 50_000


def _expanded_size(node, memo: dict, active: set) -> float:
    key = id(node)
    if key in memo:
        return memo[key]
    if key in active:  # a recursive alias (`&a [*a]`): infinite
        return float("inf")
    active.add(key)
    if node.id == "mapping":
        n = 1 + sum(_expanded_size(k, memo, active) + _expanded_size(v, memo, active)
                    for k, v in node.value)
    elif node.id == "sequence":
        n = 1 + sum(_expanded_size(i, memo, active) for i in node.value)
    else:
        n = 1
    active.discard(key)
    memo[key] = n
    return n


def _ywalk(node, parts: tuple, line: int, out: list, depth: int = 0) -> None:
    if depth > 64:  # too deep to be a setting anyone asks about
        return
    if node.id == "mapping":
        for k, v in node.value:
            if k.tag.endswith(":merge"):  # `<<: *base` -- the base's keys at this level
                _ywalk(v, parts, line, out, depth + 1)
                continue
            key = k.value if k.id == "scalar" else str(k.start_mark.line + 1)
            _ywalk(v, parts + (key,), k.start_mark.line + 1, out, depth + 1)
    elif node.id == "sequence":
        if parts and all(i.id == "scalar" for i in node.value):
            out.append((parts, [_yscalar(i) for i in node.value], line))
        else:
            for i, item in enumerate(node.value):
                _ywalk(item, parts + (i,), item.start_mark.line + 1, out, depth + 1)
    elif node.id == "scalar" and parts:
        out.append((parts, _yscalar(node), line))


def parse_yaml(text: str) -> list[Leaf]:
    import yaml  # here, not at the top: see the module's docstring

    # libyaml's composer when PyYAML was built with it: ~10x faster on a large file
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        docs = [d for d in yaml.compose_all(text, Loader=loader) if d is not None]
    except yaml.YAMLError as e:
        raise MineError(f"YAML: {_one_line(e)}") from None
    memo: dict = {}
    size = sum(_expanded_size(d, memo, set()) for d in docs)
    if size > MAX_EXPANDED:
        what = "recursive aliases" if size == float("inf") else f"{int(size)} nodes with aliases expanded"
        raise MineError(f"config too large/alias bomb ({what}, limit {MAX_EXPANDED}): "
                        "skipped, facts kept")
    out: list = []
    for n, doc in enumerate(docs):
        # a multi-document file (Kubernetes manifests) gets the document index as the first part
        _ywalk(doc, (n,) if len(docs) > 1 else (), 1, out)
    return out


# ---- INI / cfg ---------------------------------------------------------------------------------
_NO_DEFAULT = "\x00no-default"  # makes [DEFAULT] an ordinary section instead of copying it around


def parse_ini(text: str, delimiters: tuple[str, ...] = ("=", ":"),
              preamble: bool = False) -> list[Leaf]:
    """Sections' options as ``(section, option)``.  preamble: the format allows options before
    the first section (an ``.editorconfig``'s ``root = true``, a sectionless ``.npmrc``), as
    ``(option,)``; else they are an error, as configparser says."""
    cp = configparser.ConfigParser(
        interpolation=None, strict=False, allow_no_value=True, delimiters=delimiters,
        default_section=_NO_DEFAULT, inline_comment_prefixes=("#",),
    )
    # keep names as written: configparser documents this override; typeshed types it as a method
    cp.optionxform = str  # type: ignore[assignment,method-assign]
    lines = text.splitlines()
    first = next((ln.strip() for ln in lines if ln.strip() and ln.strip()[0] not in "#;"), "")
    preamble = preamble and bool(first) and not first.startswith("[")
    try:  # the preamble in a section of its own, named as no real section can be
        cp.read_string(f"[{_PREAMBLE}]\n{text}" if preamble else text)
    except Exception as e:  # configparser also raises AttributeError on some
        # malformed continuation lines (a valueless key followed by an indented line)
        raise MineError(f"INI: {_one_line(e)}") from None
    where: dict[tuple, int] = {}
    section = _PREAMBLE
    delim = "".join(re.escape(d) for d in delimiters)
    option = re.compile(rf"([^\s#;{delim}][^{delim}]*?)\s*[{delim}]")
    for n, line in enumerate(lines, 1):
        m = re.match(r"\[([^\]]+)\]", line)
        if m:
            section = m.group(1).strip()
            where.setdefault((section,), n)
            continue
        m = option.match(line) or re.match(rf"([^\s#;{delim}][^{delim}]*?)\s*$", line)
        if m:
            where.setdefault((section, m.group(1).strip()), n)
    out: list[Leaf] = []
    for section in cp.sections():
        for name, raw in cp[section].items():
            items = [ln.strip() for ln in (raw or "").splitlines() if ln.strip()]
            value = items if len(items) > 1 else (items[0] if items else "")
            at = where.get((section, name), where.get((section,), 1))
            out.append(((name,) if section == _PREAMBLE else (section, name), value, at))
    return out


_PREAMBLE = "\x00preamble"


# ---- .env --------------------------------------------------------------------------------------
def parse_env(text: str) -> list[Leaf]:
    """``NAME=value`` bindings as python-dotenv reads them (quotes, escapes such as ``\\"``,
    multi-line quoted values, ``export``); lines it cannot parse and names without a value are
    left out, as dotenv itself does."""
    from dotenv.parser import parse_stream  # see the module's docstring

    out: list[Leaf] = []
    for b in parse_stream(io.StringIO(text)):
        if b.key is not None and b.value is not None and not b.error:
            out.append(((b.key,), b.value, b.original.line))
    return out


# ---- Procfile ----------------------------------------------------------------------------------
_PROCESS = re.compile(r"^([A-Za-z0-9_-]+)[ \t]*:[ \t]*(\S.*?)[ \t]*$")


def parse_procfile(text: str) -> list[Leaf]:
    """A Procfile's process types (Heroku, foreman, honcho): ``<name>: <command>`` per line."""
    out: list[Leaf] = []
    for n, line in enumerate(text.splitlines(), 1):
        m = _PROCESS.match(line)
        if m:
            out.append(((m.group(1),), m.group(2), n))
    return out


# ---- Prisma schema -----------------------------------------------------------------------------
# No maintained Python parser of Prisma's schema language exists (the parsers are JavaScript and
# Rust); its blocks are line-based: ``<keyword> <name> {``, one setting or field a line, ``}``.
_BLOCK = re.compile(r"^\s*(datasource|generator|model|view|type|enum)\s+(\w+)\s*\{\s*$")
_SETTING = re.compile(r"^\s*(\w+)\s*=\s*(.+?)\s*$")
_FIELD = re.compile(r"^\s*(\w+)\s+(\S.*?)\s*$")
_ENUM_VALUE = re.compile(r"^\s*(\w+)\b")


def _prisma_code(line: str) -> str:
    """The line without its ``//`` comment (one inside a string literal is kept)."""
    quote = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quote = not quote
        elif not quote and line.startswith("//", i):
            return line[:i]
    return line


def parse_prisma(text: str) -> list[Leaf]:
    """A Prisma schema's leaves: ``datasource.db.provider`` (a string literal's content, other
    values as written: ``env("DATABASE_URL")``), ``generator.client.provider``, each model's
    (view's, type's) field as ``model.User.email`` = its type and attributes (``String
    @unique``), each enum as ``enum.Role`` = its values.  Block attributes (``@@index``) are
    left out."""
    out: list[Leaf] = []
    block: tuple[str, str] | None = None
    values: list[str] = []
    start = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = _prisma_code(raw)
        if block is None:
            m = _BLOCK.match(line)
            if m:
                block, values, start = (m.group(1), m.group(2)), [], n
            elif line.strip():
                raise MineError(f"Prisma: line {n}: expected a block, got {raw.strip()[:60]!r}")
            continue
        if line.strip() == "}":
            if block[0] == "enum":
                out.append((block, values, start))
            block = None
            continue
        if not line.strip() or line.strip().startswith("@@"):
            continue
        kind, name = block
        if _BLOCK.match(line):  # a brace lost mid-edit: no setting may move to another block
            raise MineError(f"Prisma: {kind} {name} (line {start}) is not closed")
        if kind in ("datasource", "generator"):
            m = _SETTING.match(line)
            if m is None:
                raise MineError(f"Prisma: line {n}: expected a setting, got {raw.strip()[:60]!r}")
            value = m.group(2)
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            out.append(((kind, name, m.group(1)), value, n))
        elif kind == "enum":
            m = _ENUM_VALUE.match(line)
            if m:
                values.append(m.group(1))
        else:
            m = _FIELD.match(line)
            if m:
                out.append((("model" if kind == "model" else kind, name, m.group(1)),
                            " ".join(m.group(2).split()), n))
    if block is not None:
        raise MineError(f"Prisma: {block[0]} {block[1]} (line {start}) is not closed")
    return out


# ---- version files -----------------------------------------------------------------------------
def parse_versions(text: str, tool: str | None) -> list[Leaf]:
    """A runtime version file: ``.nvmrc``, ``.python-version`` (one version on its first line,
    pyenv allows more: a list) as ``(tool,)``; asdf's ``.tool-versions`` (``<tool> <version>...``
    per line) as one leaf per tool.  ``#`` starts a comment."""
    rows = [(n, line.split("#", 1)[0].split()) for n, line in enumerate(text.splitlines(), 1)]
    rows = [(n, words) for n, words in rows if words]
    if tool is not None:
        if not rows:
            return []
        items = [w for _, words in rows for w in words]
        return [((tool,), items if len(items) > 1 else items[0], rows[0][0])]
    out: list[Leaf] = []
    for n, words in rows:
        if len(words) < 2:
            raise MineError(f".tool-versions: line {n}: expected '<tool> <version>'")
        out.append(((words[0],), words[1:] if len(words) > 2 else words[1], n))
    return out

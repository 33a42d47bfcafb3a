"""Stale-reference check: mentions of superseded values in the tracked docs, code comments,
docstrings and agent instruction files of the work tree.

The ledger says which values were superseded, by what, in which commit and when.  A line is
reported only when it ties an old value to its fact -- never for a bare value:

* function: the old name as a whole identifier (a plain lowercase word such as ``run`` must look
  like code: ``run(``, ```run```, ``.run``).  Not reported while any current function still has
  that name.
* route: a path in the text (``/api/v1/users/42``, ``/api/v1/users/<id>``) that matches the old
  route template and no current route.
* setting (config, constant), dependency pin, Python version: the setting's name (``port``,
  ``pool_size`` / "pool size", ``SESSION_TIMEOUT``, ``requests``, ``python``) followed on the same
  line by the old value, with at most three words and no other number between them ("port 8000",
  "port = 8000", "requests==2.31.0", "Python >=3.10").  A bare "8000" is never reported.

Scope rule, for values that are also current elsewhere.  Facts with the same setting name form a
family (``server.port`` in config/production.toml and in config/staging.toml).  Each member has
scope words that set it apart from the rest of its family: words of its file path and section
that no other member has (``production`` vs ``staging``).  A mention is tied to the members whose
words appear in its line; if none, in the nearest heading above it; if none, in the file's path.
When the mention is tied to some members, it is reported only if the superseded key is among
them.  When it is tied to none, it is reported only if no member of the family currently has that
value -- "port 8000" with staging still on 8000 is ambiguous and stays quiet, while "production
port 8000" or "port 8000" under a "## Production" heading is reported.

A value that is current again for its own key (a revert) is never stale.  Change logs
(CHANGELOG*, HISTORY*, NEWS*, RELEASES*), schema migrations (``migrations/``, ``db/migrate/``,
``alembic/versions/``) and dependency files are not scanned, and a line that
contains ``repomem: ignore`` is skipped.  Files are read only inside the work tree: a symlink
is not followed (``worktree.read``).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path

from repomem.adapters import git, worktree
from repomem.core.paths import is_migration
from repomem.core.tokens import tokens
from repomem.service.question import FILE_SUFFIXES, module_names
from repomem.storage.store import FOREVER, stored_pair

DOC_EXT = {".md", ".markdown", ".mdx", ".mdc", ".rst", ".txt", ".adoc", ".org"}
AGENT_FILES = {".cursorrules", ".windsurfrules", ".clinerules", ".aider.conf.yml", "README",
               "CONVENTIONS", "AGENTS", "CLAUDE", "GEMINI"}
HASH_COMMENT_EXT = {".sh", ".bash", ".zsh", ".yml", ".yaml", ".toml", ".cfg", ".ini", ".rb",
                    ".pl", ".r", ".tf", ".conf"}
HASH_COMMENT_NAMES = {"Dockerfile", "Makefile", "Procfile", "Containerfile"}
SLASH_COMMENT_EXT = {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".go", ".java", ".kt", ".c",
                     ".h", ".cc", ".cpp", ".hpp", ".cs", ".rs", ".swift", ".scala", ".php", ".dart"}
SKIP_NAME = re.compile(r"^(changelog|changes|history|news|releases?|release-notes)([._-].*)?$"
                       r"|^(requirements|constraints)[\w.-]*\.(txt|in)$", re.I)
IGNORE_MARK = re.compile(r"repomem(-check)?:\s*ignore", re.I)
MAX_BYTES = 1_000_000
MAX_GAP = 30

_VERSION = re.compile(r"\d+(?:\.\d+)+")
_HEADING_MD = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_PATHLIKE = re.compile(r"/[^\s`'\"()\[\],;|]*")
_IDENT_PLAIN = re.compile(r"^[A-Z]?[a-z]+$")  # a word ("encode", "Server"), not only a name
_OWNER = re.compile(r"([A-Za-z_$][\w$]*)\.$")  # the object before a mention's dot


def _owned(s: "Stale", owner: str) -> bool:
    """Whether ``owner.name`` can mean this function: a method's own object (``res`` of
    ``method res.contentType``, ``response`` of ``Response.next``), or for a module-level
    function its module or package (``utils``, ``click`` of src/click/utils.py)."""
    qual = s.subject.split(" ", 1)[-1]
    mine = qual.rpartition(".")[0].rsplit(".", 1)[-1]
    if mine:
        return owner.lower() == mine.lower()
    return owner in module_names(s.path)


@dataclass(frozen=True)
class Stale:
    """One superseded value of one key, and what replaced it."""

    key: str
    kind: str
    subject: str
    family: str | None  # setting name normalised, function name, or "route"
    old: str  # the stale text looked for (a value, a version, a name or a route)
    old_value: str  # the superseded version's whole value
    current: str | None  # the key's current value (None: removed since)
    commit: str
    at: int
    path: str = ""  # where the superseded version was


@dataclass
class Finding:
    path: str
    line: int
    mention: str
    text: str
    key: str
    kind: str
    subject: str
    stale_value: str
    current_value: str | None
    changed_in: str
    changed_at: str | None


# -- what is stale -----------------------------------------------------------------------------
def _norm_name(name: str) -> str:
    return re.sub(r"[\s_.\-]", "", name).lower()


def setting_name(key: str, kind: str) -> str | None:
    """The name a human writes for a setting: ``server.port`` -> port, ``requests`` -> requests."""
    if kind in ("config", "constant"):
        leaf = key.rsplit(":", 1)[-1].split(".")[-1]
        return re.sub(r"\[.*?\]", "", leaf) or None
    if kind == "dependency":
        return key.rsplit(":", 1)[-1]
    if kind == "python":
        return "python"
    return None


def scope_words(key: str, path: str) -> set[str]:
    """Words that locate a key: its file path and its section (not its leaf name)."""
    parts = key.split(":")
    section = parts[-1].split(".")[:-1] if parts[0] == "config" else parts[1:-1]
    return set(tokens(path.replace("/", " ") + " " + " ".join(section)))


def _versions(value: str) -> set[str]:
    return set(_VERSION.findall(value))


_DEFAULT = stored_pair("default")


def stale_values(rows: list[dict]) -> tuple[list[Stale], dict]:
    """Superseded values from the version rows, and each family's members:
    family -> {key: (scope words, current value or None)}."""
    by_key: dict[str, list[dict]] = {}
    for row in rows:
        by_key.setdefault(row["key"], []).append(row)
    stale: list[Stale] = []
    families: dict[str, dict[str, tuple[set[str], str | None]]] = {}
    current_functions: set[str] = set()
    for key, versions in by_key.items():
        versions.sort(key=lambda x: x["valid_from"])
        last = versions[-1]
        cur = last["value"] if last["valid_to"] >= FOREVER else None
        kind = last["kind"]
        if kind == "function" and cur:
            current_functions.add(cur)
        name = setting_name(key, kind)
        fam = "route" if kind == "route" else (_norm_name(name) if name else None)
        if fam and kind != "function":
            families.setdefault(fam, {})[key] = (scope_words(key, last["path"]), cur)
        if _DEFAULT in (last.get("attrs") or ""):
            # a parameter's default (httpx's head(allow_redirects=False)): a mention written
            # so is a call passing a value (requests' send(allow_redirects=False) in httpx's
            # docs), no claim about the default; it still holds a value of its family
            continue
        for v, nxt in zip(versions, versions[1:] + [None]):
            # Only where the value itself changed (not a signature or handler beside it); for a
            # value held more than once, the last change away from it wins (dict below).
            if (v["end_reason"] != "superseded" or v["value"] == cur or nxt is None
                    or nxt["value"] == v["value"] or "<redacted" in v["value"]):
                continue
            base = dict(key=key, kind=kind, subject=v["subject"], old_value=v["value"],
                        current=cur, commit=v["end_commit"], at=v["valid_to"], path=v["path"] or "")
            if kind == "function":
                stale.append(Stale(family=v["value"], old=v["value"], **base))
            elif kind in ("dependency", "python"):
                for ver in sorted(_versions(v["value"]) - _versions(cur or "")):
                    stale.append(Stale(family=fam, old=ver, **base))
            elif fam and v["value"].strip() and len(v["value"]) <= 80 and "\n" not in v["value"]:
                stale.append(Stale(family=fam, old=v["value"], **base))
    # A function name still in use by any current function may be meant as that function.
    latest = {(s.key, s.old): s for s in sorted(stale, key=lambda s: s.at)}
    stale = [s for s in latest.values() if s.kind != "function" or s.old not in current_functions]
    return stale, families


# -- where to look -----------------------------------------------------------------------------
def _doc_kind(path: str) -> str | None:
    p = Path(path)
    # a schema migration is a dated record like a change log: "Generated by Django 4.2 on
    # 2024-08-01" stays true of the migration
    if SKIP_NAME.match(p.name) or is_migration(path):
        return None
    if p.suffix.lower() in DOC_EXT or p.name in AGENT_FILES or path in (
            ".github/copilot-instructions.md",):
        return "doc"
    if p.suffix == ".py":
        return "python"
    if p.suffix.lower() in HASH_COMMENT_EXT or p.name in HASH_COMMENT_NAMES:
        return "hash"
    if p.suffix.lower() in SLASH_COMMENT_EXT:
        return "slash"
    return None


def _python_text(src: str) -> dict[int, str]:
    """Comments and docstrings of a Python file, by line number."""
    out: dict[int, str] = {}
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return out
    prev = tokenize.NEWLINE
    for tok in toks:
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = out.get(tok.start[0], "") + " " + tok.string
        elif tok.type == tokenize.STRING and prev in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                                      tokenize.DEDENT, tokenize.ENCODING):
            # a string statement: a docstring (or a bare string used as a comment)
            for i, ln in enumerate(tok.string.splitlines()):
                out[tok.start[0] + i] = out.get(tok.start[0] + i, "") + " " + ln
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            prev = tok.type
    return out


_COMMENT_QUERIES: dict = {}


def _source_comments(path: str, text: str) -> dict[int, str] | None:
    """Comments and doc comments (``//``, ``/* */``, ``///``, JSDoc, Javadoc) of a JavaScript,
    TypeScript, Go, Rust or Java file, by line, from its syntax tree: a ``//`` inside a string
    (a URL) is no comment, and every line of a block comment is.  None for other languages."""
    from repomem.miners.lang import language_of, load

    lang = language_of(path)
    if lang is None:
        return None
    from tree_sitter import Query, QueryCursor

    parser, _ = load(lang)
    comments = _COMMENT_QUERIES.get(lang.name)
    if comments is None:
        pattern = "[" + " ".join(f"({t})" for t in sorted(lang.comments)) + "] @comment"
        comments = _COMMENT_QUERIES[lang.name] = Query(parser.language, pattern)
    data = text.encode("utf-8", "surrogatepass")
    out: dict[int, str] = {}
    root = parser.parse(data).root_node
    for n in QueryCursor(comments).captures(root).get("comment", []):
        body = data[n.start_byte:n.end_byte].decode("utf-8", "replace")
        for i, ln in enumerate(body.split("\n")):
            row = n.start_point[0] + 1 + i
            if ln.strip():  # a Rust line comment ends with its newline
                out[row] = (out.get(row, "") + " " + ln.strip()).strip()
    return out


def _comment_lines(lines: list[str], kind: str) -> dict[int, str]:
    out = {}
    for i, ln in enumerate(lines, 1):
        s = ln.strip()
        if kind == "hash" and "#" in ln:
            out[i] = ln[ln.index("#"):]
        elif kind == "slash":
            if "//" in ln:
                out[i] = ln[ln.index("//"):]
            elif s.startswith(("/*", "*")):
                out[i] = s
    return out


def scannable(path: str, text: str) -> list[tuple[int, str, str]]:
    """(line number, text to scan, nearest heading above) for one file."""
    kind = _doc_kind(path)
    if kind is None:
        return []
    lines = text.splitlines()
    if kind == "doc":
        out, heading = [], ""
        for i, ln in enumerate(lines, 1):
            m = _HEADING_MD.match(ln) if not path.endswith(".rst") else None
            if m:
                heading = m.group(1)
            elif (i < len(lines) and ln.strip() and _RST_UNDERLINE.match(lines[i])
                  and len(lines[i].strip()) >= len(ln.strip())):
                heading = ln.strip()
            out.append((i, ln, heading))
        return out
    picked: dict[int, str] | None
    if kind == "python":
        picked = _python_text(text)
    else:
        picked = _source_comments(path, text) if kind == "slash" else None
        if picked is None:
            picked = _comment_lines(lines, kind)
    return [(i, picked[i], "") for i in sorted(picked)]


# -- matching ----------------------------------------------------------------------------------
def _name_pattern(name: str) -> str:
    """A setting's name as prose spells it (``max_retries``, ``MAX-RETRIES``, ``max retries``,
    ``maxRetries``); not with a dot between its words: ``license.file`` is a key under a
    ``license`` table (briefcase's), not the ``license_file`` setting."""
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", name) or [name]
    return r"(?<![A-Za-z0-9])" + r"[\s_\-]?".join(map(re.escape, words)) + r"(?![A-Za-z0-9])"


def _value_pattern(value: str) -> str:
    return r"(?<![\w.\-])" + re.escape(value) + r"(?![\w]|\.\w)"


# Between a setting's name and its value: punctuation and at most three words, no digits.
_GAP = re.compile(r"^[^\w\n]*(?:[^\W\d]+[^\w\n]+){0,3}$")


def _route_regex(route: str) -> re.Pattern | None:
    path = route.split(" ", 1)[-1]
    segs = [s for s in path.split("/") if s]
    if not any(not _dynamic(s) for s in segs):
        return None  # "/" or "/<id>": too generic to recognise in prose
    parts = [r"[^/\s]+" if _dynamic(s) else re.escape(s) for s in segs]
    return re.compile(r"/" + "/".join(parts) + r"/?")


def _dynamic(seg: str) -> bool:
    return seg.startswith(("<", "{", ":")) or seg == "*"


_EXAMPLE = re.compile(r"\b(?:like|e\.?g|example|such\s+as)\b", re.I)
_PY_HISTORY = re.compile(r"\b(?:in|from|since|before|until|as\s+of)\s+$", re.I)
# A record of the past, whatever the fact: "no updates between Wagtail 4.1 and 4.2", "Generated
# by 'django-admin startproject' using Django 1.10.5" (a settings module's header)
_RECORD = re.compile(r"\bbetween\s+$|\b(?:generated|created)\s+(?:by|with)\b.*\busing\s+$", re.I)


class Checker:
    def __init__(self, stale: list[Stale], families: dict):
        self.families = families
        self.settings: dict[str | None, list[Stale]] = {}
        self.functions: dict[str, list[Stale]] = {}
        self.routes: list[tuple[re.Pattern, Stale]] = []
        self.current_routes = []
        names: dict[str | None, str] = {}
        for s in stale:
            if s.kind == "function":
                self.functions.setdefault(s.old, []).append(s)
            elif s.kind == "route":
                rx = _route_regex(s.old_value)
                if rx:
                    self.routes.append((rx, s))
            else:
                self.settings.setdefault(s.family, []).append(s)
                # a None family (a dependency key without a setting name) stays a key of its own, as before
                names.setdefault(s.family, setting_name(s.key, s.kind) or s.family)  # type: ignore[arg-type]
        for _, cur in families.get("route", {}).values():
            rx = _route_regex(cur) if cur else None
            if rx:
                self.current_routes.append(rx)
        self.name_re = (re.compile("|".join(f"(?:{_name_pattern(n)})" for n in
                                            sorted(set(names.values()), key=len, reverse=True)),
                                   re.I) if names else None)
        # not a file named like the function (``test_basic.py::test_flag``, ``views.js``)
        self.func_re = (re.compile(r"(?<!\w)(" + "|".join(map(re.escape, sorted(
            self.functions, key=len, reverse=True))) + r")(?!\w|\.(?:" + FILE_SUFFIXES + r")\b)")
            if self.functions else None)

    def _distinct(self, family: str) -> dict[str, set[str]]:
        members = self.families.get(family, {})
        out = {}
        for key, (words, _) in members.items():
            others = set().union(*(w for k, (w, _) in members.items() if k != key))
            out[key] = words - others
        return out

    def _tied(self, family: str, contexts: list[set[str]]) -> set[str]:
        distinct = self._distinct(family)
        for ctx in contexts:
            tied = {k for k, words in distinct.items() if words & ctx}
            if tied:
                return tied
        return set()

    def _holds(self, family: str, value: str, kind: str) -> bool:
        for _, cur in self.families.get(family, {}).values():
            if cur is None:
                continue
            if cur == value or (kind in ("dependency", "python") and value in _versions(cur)):
                return True
        return False

    def scan_line(self, text: str, contexts: list[set[str]]):
        """Yield (stale, mention) for one line."""
        if self.name_re:
            yield from self._setting_mentions(self.name_re, text, contexts)
        if self.func_re:
            yield from self._function_mentions(self.func_re, text)
        if self.routes:
            yield from self._route_mentions(text)

    def _setting_mentions(self, name_re: re.Pattern, text: str, contexts: list[set[str]]):
        """A setting's name followed closely by one of its old values."""
        for m in name_re.finditer(text):
            fam = _norm_name(m.group(0))
            cands = self.settings.get(fam, [])
            if not cands:
                continue
            rest = text[m.end():m.end() + MAX_GAP + 40]
            # "In Python 3.7 and later ...", "from Python 3.8 onwards": Python's own history,
            # not what the project supports
            history = _PY_HISTORY.search(text[:m.start()]) is not None
            if _RECORD.search(text[:m.start()]):
                continue
            tied = None
            for s in cands:
                vm = re.search(_value_pattern(s.old), rest)
                if not vm or vm.start() > MAX_GAP or not _GAP.match(rest[:vm.start()]):
                    continue
                if _EXAMPLE.search(rest[:vm.start()]) or (history and s.kind == "python"):
                    continue  # "a version like `0.13.3`": an example, not a claim
                if tied is None:
                    tied = self._tied(fam, contexts)
                if (s.key in tied) if tied else not self._holds(fam, s.old, s.kind):
                    yield s, text[m.start():m.end() + vm.end()].strip()

    def _function_mentions(self, func_re: re.Pattern, text: str):
        """An old function name where it can mean that function."""
        for m in func_re.finditer(text):
            name = m.group(1)
            before, after = text[:m.start()], text[m.end():]
            # a plain word names the function only when called (``encode(``) or when its owner
            # is spelled (``res.locals``): `options` is a parameter, `mime.x` an object
            plain = bool(_IDENT_PLAIN.match(name))
            if plain and (not (after.startswith("(") or before.endswith("."))
                          or after.startswith(".")):  # res.locals.user: an object
                continue
            owner = _OWNER.search(before) if before.endswith(".") else None
            called = bool(re.match(r"\s*\(", after))
            for s in self.functions[name]:
                if before.endswith(".") and not _owned(s, owner.group(1) if owner else ""):
                    continue  # `mime.contentType()`, `http.createServer()`: another's
                if s.current is None and not called:
                    # removed, not renamed: the name may live on as another member (express's
                    # res.locals, a method until 2011, an object since; requests' response.next
                    # in httpx's docs) -- only a call is the function
                    continue
                yield s, name

    def _route_mentions(self, text: str):
        """A path that matches an old route template and no current route."""
        for pm in _PATHLIKE.finditer(text):
            cand = pm.group(0).rstrip(".:!?")
            if any(rx.fullmatch(cand) for rx in self.current_routes):
                continue
            for rx, s in self.routes:
                if rx.fullmatch(cand):
                    yield s, cand


def _context_words(text: str, heading: str, path: str) -> list[set[str]]:
    return [set(tokens(text)), set(tokens(heading)), set(tokens(path.replace("/", " ")))]


def check_tree(r) -> dict:
    """Scan the tracked files of the work tree against the ledger of ``r`` (a Repo)."""
    from repomem.service.query import iso
    from repomem.service.view import ensure_view

    ensure_view(r)
    with r.store.reader():
        rows = r.store.rows()
    stale, families = stale_values(rows)
    checker = Checker(stale, families)
    files = [p for p in git.git(r.root, "ls-files", "-z").decode("utf-8", "surrogateescape")
             .split("\0") if p]
    findings: list[Finding] = []
    scanned = 0
    for rel in sorted(files):
        if _doc_kind(rel) is None:
            continue
        # Never through a symlink, never outside the work tree (a skip is logged).
        data = worktree.read(r.root, rel, MAX_BYTES)
        if data is None:
            continue
        if b"\0" in data[:8192]:
            continue
        scanned += 1
        seen = set()
        # the line right above: "Tag the version like `0.13.3`." makes the next line's
        # "Release title `Version 0.13.3`" the same example
        before, above = "", 0
        for lineno, text, heading in scannable(rel, data.decode("utf-8", "replace")):
            if IGNORE_MARK.search(text) or not stale:
                before, above = text, lineno
                continue
            cue = _EXAMPLE.search(before) if above == lineno - 1 else None
            for s, mention in checker.scan_line(text, _context_words(text, heading, rel)):
                if (lineno, mention) in seen or (cue and s.old in before[cue.end():]):
                    continue
                seen.add((lineno, mention))
                findings.append(Finding(
                    path=rel, line=lineno, mention=mention, text=text.strip()[:200], key=s.key,
                    kind=s.kind, subject=s.subject, stale_value=s.old,
                    current_value=s.current, changed_in=s.commit, changed_at=iso(s.at)))
            before, above = text, lineno
    return {"findings": [asdict(f) for f in findings], "files_scanned": scanned,
            "stale_values": len(stale)}

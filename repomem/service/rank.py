"""Hybrid ranking of the facts valid at one time: which of them answers a question.

Four signals, fused deterministically (reciprocal rank fusion, ties by key):

- **exact identifiers**: a name the question spells out (``urllib3``,
  ``ACCESS_TOKEN_EXPIRE_MINUTES``, ``create_jinja_loader``, a route path) that is the name of a
  fact puts that fact first when it is of a kind the question asks for (else it is one more
  fused signal).  A plain word counts only when few facts bear it (``blinker`` does, ``cli`` in
  click does not), and the words that frame the question ("version", "require", the project
  named in "does flask require") never do.  A name that only a *retired* version bore resolves
  to the key's current version and adds a lineage note: the one place an old name is shown,
  and only because the question used it (a quoted retired value gets a note too);
- **lexical**: BM25 over the fact's fields, weighted per field (repomem.service.lexical);
- **vector**: the embedder's cosine similarity (the snapshot's matrix, or Chroma's embeddings);
- **intent**: the kinds of fact the question's wording asks for (a version, a port, a route, a
  function's name, a setting, the Python version), and scope: for a dependency question the
  group it names ("the docs build") or else the root project's runtime group, for other kinds
  the project's own files over its examples, docs and tests.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from repomem.core.paths import is_test, tool_of
from repomem.core.tokens import norm_ident, stem_word, uncamel
from repomem.service import alias, naming, scorer
from repomem.service.lexical import calls_of, catches_of, in_body, lexical_tokens, names, own_names, route_path
from repomem.service.question import (
    _FRAME,
    _GROUPS,
    Question,
    code_shaped,
    groups,
    has_content,
    identifiers,
    intent,
    module_names,
    parse,
    plural_of_name,
    qualifying_word,
    said_in,
    spoken,
)
from repomem.service.quoted import retired_values
from repomem.storage.store import stored_pair

__all__ = ["rank", "intent", "identifiers", "groups", "has_content"]

RRF_K = 60  # the usual reciprocal-rank-fusion constant (lexical_rrf, vector_rrf: 1 / (RRF_K + rank))
RRF_DEPTH = 4096  # the rows a signal ranks (every row of each benchmark history's current view)
RARE = 5  # a plain word is an identifier when at most this many facts bear it as a name
# A value that is a number: 30, -1, 0.5, a quantity ("60d", "10mb"), numbers made into one
# (timedelta(days=7), Timeout(5.0))
_NUMERIC = re.compile(r"[-+]?\d[\d_.]*\s*[A-Za-z]{0,5}|[\w.]+\((?:\w+=)?[-+]?\d[\d_.]*"
                      r"(?:,\s*(?:\w+=)?[-+]?\d[\d_.]*)*\)")
_DIGIT = re.compile(r"\d")
_EXCEPTION_WORDS = frozenset(lexical_tokens("error exception err exc"))
_SUBSCRIPT = re.compile(r"\[[^\[\]]*\]")  # a base's type arguments: Generic[T]


def _name_words(name: str) -> set[str]:
    """The words of a code name (KeyboardInterrupt: keyboard, interrupt), less the name run
    together; a one-word name is its word."""
    toks = lexical_tokens(name)
    return {t for t in toks if t != norm_ident(name) and "_" not in t} or set(toks)


def _said(words: set[str], said: set[str]) -> bool:
    """Every word said by the question, a name's abbreviation as the word it begins (param:
    parameter)."""
    return all(w in said or len(w) >= 4 and any(q.startswith(w) for q in said) for w in words)


def _verbless(function: str) -> frozenset[str]:
    """The words of a function's name after its verb (``User.get_token``: token)."""
    last = function.rsplit(".", 1)[-1]
    return frozenset([w for w in lexical_tokens(last) if w != norm_ident(last) and "_" not in w][1:])


_AUX = re.compile(r"(?:^|/)(?:examples?|docs?|tests?|samples?|demos?|benchmarks?|fixtures)/"
                  r"|(?:^|/)(?:tests?|test_[^/]*|[^/]*_tests?|conftest)\.py$"  # microblog's tests.py
                  r"|\.(?:test|spec)\.[cm]?[jt]sx?$")
# Kinds named like code: case-sensitive, and only by a word written as a name (see _exact)
_CODE_NAMES = ("function", "class")
_TEST_KINDS = ("function", "class", "constant")
# (a Maven parent: the platform the root project builds on, Spring Boot's starter parent)
_ROOT_GROUPS = {"main", "runtime", "default", "dependencies", "install_requires", "parent"}


def _root_dependency(row: dict) -> bool:
    """A runtime requirement of the repository's root project (SHARED_DECISIONS #1 keys
    dependency:<eco>:<project>:<group>:<name>; older keys dependency:<eco>:<group>:<name>)."""
    attrs = dict(json.loads(row["attrs"])) if isinstance(row.get("attrs"), str) else {}
    parts = row["key"].split(":")
    project = attrs.get("project", parts[2] if len(parts) >= 5 else None)
    group = _group(row)
    if project is None:
        project = "." if "/" not in row["path"] else row["path"].rsplit("/", 1)[0]
    return project == "." and group in _ROOT_GROUPS


def _group(row: dict) -> str:
    attrs = dict(json.loads(row["attrs"])) if isinstance(row.get("attrs"), str) else {}
    parts = row["key"].split(":")
    group = attrs.get("group", parts[-2] if len(parts) >= 4 else "main")
    return _GROUPS.get(group.lower(), norm_ident(group))


# The project's own version: a package manifest's version field, or a module's __version__.
_PROJECT_VERSION = re.compile(
    r"^config:(?:.*/)?(?:pyproject\.toml:(?:project|tool\.poetry)\.version|setup\.cfg:metadata\."
    r"version|setup\.py:version|package\.json:version|Cargo\.toml:package\.version)$"
    r"|^constant:.*:__version__$")
_PROJECT_KEYS = {"config:pyproject.toml:project.name", "config:pyproject.toml:tool.poetry.name",
                 "config:setup.cfg:metadata.name", "config:package.json:name"}


def qualnames(row: dict) -> list[str]:
    """A method's qualified name (``Context.invoke`` of "method Context.invoke") and the other
    names it is bound to (express's ``res.set = res.header = function header``)."""
    if row["kind"] not in _CODE_NAMES:
        return []
    qual = row.get("subject", "").split(" ", 1)[-1]
    out = [qual] if "." in qual else []
    if not out and row.get("path"):
        # a module-level one by its module or package, as code calls it: click.prompt,
        # termui.prompt (src/click/termui.py), httpx.get (httpx/_api.py)
        out = [f"{m}.{qual}" for m in module_names(row["path"])]
    attrs = row.get("attrs")
    if isinstance(attrs, str) and '"aliases"' in attrs:
        out += dict(json.loads(attrs)).get("aliases", "").split(", ")
    return out


_IMAGE_KEY = re.compile(r"(?:^config:.*(?:\.|:)image|^docker:.*:from:.*)$")


def _image_name(row: dict) -> str:
    """The image a compose service or a Dockerfile stage runs, by name: ``redis`` of
    ``services.redis.image = redis:8.4``, ``postgres`` of ``docker.io/library/postgres:16``."""
    if row["kind"] not in ("config", "docker") or not _IMAGE_KEY.match(row["key"]):
        return ""
    value = row["value"].strip()
    if ":" not in value and "@" not in value:
        return ""  # no tag: no version to tell
    return norm_ident(value.rsplit("/", 1)[-1].split("@", 1)[0].split(":", 1)[0])


def facts_columns(rows: list[dict]) -> dict:
    """What _Facts reads about each row, as JSON: computed once per list of rows, here or by the
    snapshot's writer (service/viewcache.py), so that a fresh process loads it instead of
    looping over every row in Python.  ``code``: the fingerprint of the code computing it
    (columns_code): a snapshot written by other code is not trusted."""
    named: dict[str, list[int]] = {}
    retired: dict[str, list[tuple[int, list]]] = {}
    project: set[str] = set()  # "click" in "click's docs" names the repository
    images: dict[str, list[int]] = {}  # "redis" -> services.redis.image (redis:8.4)
    for i, row in enumerate(rows):
        for n in names(row, camel=True):
            named.setdefault(n, []).append(i)
        for qual in qualnames(row):  # `Context.invoke`, res.send, res.set (an alias)
            named.setdefault(norm_ident(qual), []).append(i)
        for entry in row.get("former") or ():
            old = route_path(entry[0]) if row["kind"] == "route" else norm_ident(entry[0])
            retired.setdefault(old, []).append((i, entry))
        if row["key"] in _PROJECT_KEYS:
            project.add(norm_ident(row["value"]))
        image = _image_name(row)
        if image:
            images.setdefault(image, []).append(i)
    deps = [r["kind"] == "dependency" for r in rows]
    key_order = [0] * len(rows)  # each row's place in the order of keys (ties: by id)
    for place, i in enumerate(sorted(range(len(rows)),
                                     key=lambda i: (rows[i]["key"], rows[i].get("id", ""), i))):
        key_order[i] = place
    return {
        "code": columns_code(), "rows": len(rows), "names": named, "retired": retired,
        "project": sorted(project), "images": images, "kind": [r["kind"] for r in rows],
        "root_dep": [d and _root_dependency(r) for d, r in zip(deps, rows)],
        "group": [_group(r) if d else "" for d, r in zip(deps, rows)],
        "own": [not _AUX.search(r["path"]) for r in rows],
        # a version manager's pin (.nvmrc, .python-version): a runtime's version, wanted as a
        # requirement or a Python version is ("what node version is used?")
        "runtime": [_RUNTIME in r["attrs"] if isinstance(r.get("attrs"), str) else False
                    for r in rows],
        # a test's functions, classes and constants: its cases and fixtures
        "test_code": [r["kind"] in _TEST_KINDS and is_test(r["path"]) for r in rows],
        # a function's parameter default (prompt.prompt_suffix): by the function's name
        "param_of": [own_names(r["key"])[0].rpartition(".")[0].lower()
                     if isinstance(r.get("attrs"), str) and _PARAMETER in r["attrs"] else ""
                     for r in rows],
        # a value in a function's body: passed to a call by name
        # (generateToken.jwt.sign.expiresIn), bound to a local name (res.redirect.status)
        "in_body": [in_body(r) for r in rows],
        # a private function or class (`_CookieCompatRequest`): the module's helper, not its API
        "private": [r["kind"] in _CODE_NAMES and r["value"].startswith("_")
                    and not r["value"].startswith("__") for r in rows],
        # a dependency whose value states no version: managed by a parent or a plugin (Maven's
        # Spring Boot starters), any (`*`), a branch
        "unversioned": [r["kind"] == "dependency" and not _DIGIT.search(r["value"]) for r in rows],
        "key_order": key_order,
    }


@functools.cache
def columns_code() -> str:
    """A fingerprint of the code facts_columns runs: its own and every function, pattern and
    constant of this package it reaches by name (a change to how a name or a group is read
    makes older snapshots' columns unused, not wrong); not the rest of ranking."""
    import hashlib
    import types

    h = hashlib.sha256()
    seen: set[int] = set()
    todo: list[Any] = [facts_columns]

    def stable(x) -> str:  # a set's repr is in hash order, which differs between processes
        if isinstance(x, (set, frozenset)):
            return "{" + ",".join(sorted(stable(y) for y in x)) + "}"
        if isinstance(x, dict):
            return "{" + ",".join(sorted(f"{stable(k)}:{stable(v)}" for k, v in x.items())) + "}"
        if isinstance(x, (tuple, list)):
            return "(" + ",".join(stable(y) for y in x) + ")"
        return repr(x)

    def code(c: types.CodeType, glob: dict) -> None:
        h.update(c.co_code + repr(c.co_names).encode())
        for const in c.co_consts:
            if isinstance(const, types.CodeType):
                code(const, glob)
            else:
                h.update(stable(const).encode())
        todo.extend(glob[n] for n in c.co_names if n in glob)

    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        x = getattr(x, "__wrapped__", x)  # a cached function (norm_ident): the function
        if isinstance(x, types.FunctionType) and x.__module__.startswith("repomem."):
            code(x.__code__, x.__globals__)
        elif isinstance(x, re.Pattern):
            h.update(f"{x.pattern!r}/{x.flags}".encode())
        elif isinstance(x, (str, int, frozenset, set, tuple, dict)):  # the constants it reads
            h.update(stable(x).encode())
    return h.hexdigest()[:16]


class _Facts:
    """What ranking needs about a list of rows, computed once per list: a warm process (the MCP
    server, the bench) reuses the snapshot's rows, so only the question's own work remains; a
    fresh one loads the columns the snapshot's writer computed (COLUMNS, see facts_columns)."""

    def __init__(self, rows: list[dict], columns: dict | None = None):
        import numpy as np

        if columns is None or columns.get("code") != columns_code() or \
                columns.get("rows") != len(rows):
            columns = facts_columns(rows)
        self.rows = rows
        self.names: dict[str, list[int]] = columns["names"]
        self.retired: dict[str, list[tuple[int, list]]] = columns["retired"]
        self.project: set[str] = set(columns["project"])
        self.images: dict[str, list[int]] = columns["images"]
        self._said: set[str] | None = None
        self._passed: dict[str, list[int]] | None = None
        self._dirs: dict[str, list[int]] | None = None
        self._spoken: list[tuple[str, str]] | None = None
        self._files: set[str] | None = None
        self.kind = np.array(columns["kind"], dtype=object)
        self.root_dep = np.array(columns["root_dep"], dtype=bool)
        self.group = np.array(columns["group"], dtype=object)
        self.own = np.array(columns["own"], dtype=bool)
        self.runtime = np.array(columns["runtime"], dtype=bool)
        self.test_code = np.array(columns["test_code"], dtype=bool)
        self.param_of = np.array(columns["param_of"], dtype=object)
        self.in_body = np.array(columns["in_body"], dtype=bool)
        self.private = np.array(columns["private"], dtype=bool)
        self.unversioned = np.array(columns["unversioned"], dtype=bool)
        self.key_order = np.array(columns["key_order"], dtype=np.int64)
        self._called: dict[str, list[tuple[int, str]]] | None = None
        self._body_names: list[tuple[int, set[str]]] | None = None
        self._kind_masks: dict[str, Any] = {}
        self._through: dict[str, set[int]] = {}
        self._doing: dict[str, set[int]] | None = None
        self._doing_part: dict[str, dict[str, set[int]]] = {}
        self._caught: list[tuple[int, frozenset[str]]] | None = None
        self._bases: list[tuple[int, set[str], list[set[str]]]] | None = None
        # removed facts by the kinds asked, by name (filled by repomem.service.query._removed)
        self.gone: dict[frozenset[str], dict[str, list[dict]]] = {}
        self._numeric: Any = None
        self._methods: dict[str, Any] | None = None
        self._params: dict[str, tuple[list[int], frozenset[str], dict]] | None = None
        self._body_words: dict[str, list[int]] | None = None

    def numeric(self) -> Any:
        """Per row, whether its value is a number (see _NUMERIC)."""
        if self._numeric is None:
            import numpy as np

            self._numeric = np.array([_NUMERIC.fullmatch(r["value"]) is not None
                                      for r in self.rows], dtype=bool)
        return self._numeric

    def answering_with(self, methods) -> Any:
        """Per row, whether it is a route answering one of these HTTP methods (GET of
        "GET /api/articles/feed", GET and POST of "GET,POST /edit")."""
        import numpy as np

        if self._methods is None:
            self._methods = {}
            for i in np.flatnonzero(self.of_kind(("route",))):
                for m in self.rows[i]["value"].split(" ", 1)[0].split(","):
                    self._methods.setdefault(m, []).append(int(i))
        return _at(len(self.rows), {i for m in methods for i in self._methods.get(m, ())})

    def unsaid_parameters(self, said: set[str], words) -> Any:
        """Per row, whether it is a function's parameter default whose function the question
        does not name: neither by a name it SAID nor in WORDS, the function by every word of its
        name after its verb and the parameter by one of its own ("how long is an api token
        valid?": ``User.get_token``'s ``expires_in``, a timeout; not ``send_email``'s ``sync``
        for "what is the admin email?", nor ``get``'s ``timeout``, whose name is only a verb).
        The parameters are grouped by their function once per list of rows."""
        import numpy as np

        if self._params is None:
            # function (lowercase) -> (its rows, the words of its name after its verb,
            # {the words of a parameter's name: its rows})
            self._params = {}
            for i in np.flatnonzero(self.param_of != ""):
                function, _, parameter = own_names(self.rows[i]["key"])[0].rpartition(".")
                entry = self._params.setdefault(self.param_of[i], ([], _verbless(function), {}))
                entry[0].append(int(i))
                entry[2].setdefault(frozenset(_name_words(parameter)), []).append(int(i))
        out = np.zeros(len(self.rows), dtype=bool)
        for function, (members, name, parameters) in self._params.items():
            if function in said:
                continue
            out[members] = True
            if name and name <= words:
                for parameter, which in parameters.items():
                    if parameter & words:
                        out[which] = False
        return out

    def body_values_unsaid(self, words) -> Any:
        """Per row, whether it is a value in a function's body none of whose own name's words
        the question says."""
        if self._body_words is None:
            self._body_words = {}
            for i, own in self.body_names():
                for w in own:
                    self._body_words.setdefault(w, []).append(i)
        out = self.in_body.copy()
        said = [i for w in words for i in self._body_words.get(w, ())]
        out[said] = False
        return out

    def of_kind(self, kinds) -> Any:
        """Per row, whether its kind is one of KINDS (numpy; each kind's mask made once)."""
        import numpy as np

        out = np.zeros(len(self.rows), dtype=bool)
        for k in kinds:
            mask = self._kind_masks.get(k)
            if mask is None:
                mask = self._kind_masks[k] = self.kind == k
            out |= mask
        return out

    def body_names(self) -> list[tuple[int, set[str]]]:
        """(row, the words of its own name) of each value in a function's body."""
        if self._body_names is None:
            import numpy as np

            self._body_names = [(int(i), _name_words(own_names(self.rows[i]["key"])[1]))
                                for i in np.flatnonzero(self.in_body)]
        return self._body_names

    def callers(self, name: str) -> list[int]:
        """The functions whose bodies call NAME (attrs calls): ``make_context`` is called as
        ``self.make_context`` and ``ctx.make_context``; a dotted name (``bcrypt.hash``) as
        written, else (``Context.invoke`` is called as ``ctx.invoke``) by its last part; a name
        no call ends with, through it (``bcrypt``: ``bcrypt.hash``, ``bcrypt.compare``)."""
        found = self._calls().get(name.rsplit(".", 1)[-1], [])
        exact = [i for i, entry in found if entry == name or entry.endswith("." + name)]
        return sorted(set(exact or [i for i, _ in found]) or self._through.get(name, set()))

    def _calls(self) -> dict[str, list[tuple[int, str]]]:
        """Last part of a called name -> (row, the call as written); built on the first question
        that needs it only."""
        if self._called is None:
            self._called = {}
            for i, row in enumerate(self.rows):
                for entry in filter(None, calls_of(row).split(", ")):
                    self._called.setdefault(entry.rsplit(".", 1)[-1], []).append((i, entry))
                    if "." in entry:
                        self._through.setdefault(entry.split(".", 1)[0], set()).add(i)
        return self._called

    def subclasses(self, said: set[str]) -> list[int]:
        """The classes the question names by their own words and their base's: Choice(ParamType)
        by "a choice parameter type", BasicAuth(Auth) by "basic auth"."""
        if self._bases is None:
            self._bases = []
            for i, row in enumerate(self.rows):
                attrs = row.get("attrs")
                if row["kind"] != "class" or not isinstance(attrs, str) or '"bases"' not in attrs:
                    continue
                bases, was = dict(json.loads(attrs)).get("bases", ""), None
                while bases != was:  # Generic[Mapping[K, V]] is Generic
                    was, bases = bases, _SUBSCRIPT.sub("", bases)
                named = [_name_words(b.strip().rsplit(".", 1)[-1]) for b in bases.split(",")
                         if b.strip() and "=" not in b]  # not metaclass=ABCMeta
                own = _name_words(row["value"])
                self._bases.append((i, own, [b for b in named if b and not own <= b]))
        return [i for i, own, bases in self._bases
                if _said(own, said) and any(_said(b, said) for b in bases)]

    def catching(self, said: set[str]) -> list[int]:
        """The functions whose bodies catch an exception the question names by its words (its
        lexical tokens SAID): KeyboardInterrupt by "keyboard interrupts", BrokenPipeError by
        "broken pipe errors"; the words every exception has (error, exception) name none."""
        if self._caught is None:
            self._caught = []
            for i, row in enumerate(self.rows):
                for name in filter(None, catches_of(row).split(", ")):
                    own = _name_words(name.rsplit(".", 1)[-1]) - _EXCEPTION_WORDS
                    if own:
                        self._caught.append((i, frozenset(own)))
        return sorted({i for i, words in self._caught if words <= said})

    def doing(self, verb: str, about: set[str]) -> list[int]:
        """The functions whose bodies call a function named by VERB's stem ("hashed":
        ``bcrypt.hash``, "signed": ``sign``, ``cookie.sign``); when none is, those calling one
        with VERB's stem as a word of its name, and a word of ABOUT (the question's other
        lexical tokens) in that name or their own: werkzeug's ``generate_password_hash`` called
        by ``set_password``, for "how are passwords hashed?", not for "how are avatars
        generated?"; not the callers of a function of the project, which answers itself."""
        if self._doing is None:
            self._doing, self._doing_part = {}, {}
            for last, found in self._calls().items():
                rows = {i for i, _ in found}
                self._doing.setdefault(stem_word(last.lower()), set()).update(rows)
                for part in set(norm_ident(uncamel(last)).split("_")):
                    self._doing_part.setdefault(stem_word(part), {})[last] = rows
        stem = stem_word(verb)
        if stem in self._doing:
            return sorted(self._doing[stem])
        out: set[int] = set()
        for last, rows in self._doing_part.get(stem, {}).items():
            if any(self.kind[i] == "function" for i in self.names.get(norm_ident(last), ())):
                continue  # the project's own render_progress answers, not its callers
            if about & set(lexical_tokens(last)):
                out |= rows
            else:
                out.update(i for i in rows if about & set(lexical_tokens(self.rows[i]["value"])))
        return sorted(out)

    def passing(self, name: str) -> list[int]:
        """The settings and constants whose value names NAME: passes it as a keyword argument or
        an object's key (``Limits(max_connections=100, ...)``, ``{maxAge: 60}``: max_connections,
        max_age), or reads it as an environment variable (Prisma's ``env("DATABASE_URL")``,
        ``${DATABASE_URL}``); built on the first question that needs it only."""
        if self._passed is None:
            self._passed = {}
            for i, row in enumerate(self.rows):
                if row["kind"] in ("config", "constant") and any(c in row["value"] for c in "=:{("):
                    read = {m.group(1) or m.group(2) for m in _ENV_NAMED.finditer(row["value"])}
                    for arg in set(_PASSED.findall(row["value"])) | read:
                        for n in {norm_ident(arg), norm_ident(uncamel(arg))}:
                            self._passed.setdefault(n, []).append(i)
        return self._passed.get(name, [])

    def in_dirs(self, names: set[str]) -> list[int]:
        """The rows in a folder of one of these names; only folders named by several words
        (``content-negotiation``, ``route_separation``): a one-word folder (lib, app, auth) is
        too common a word to scope a question by."""
        if self._dirs is None:
            self._dirs = {}
            for i, row in enumerate(self.rows):
                for part in set((row["path"] or "").split("/")[:-1]):
                    if "-" in part or "_" in part.strip("_"):
                        self._dirs.setdefault(norm_ident(part), []).append(i)
        return sorted({i for n in names for i in self._dirs.get(n, ())})

    def mentioning(self, name: str) -> tuple[set[int], set[int]]:
        """The rows whose path, and those whose value, say NAME (question.mentions): "when did
        we switch to flit?" (each row's words are read once per list of rows)."""
        if self._spoken is None:
            self._spoken = [(spoken(r["path"] or ""), spoken(r["value"])) for r in self.rows]
        return ({i for i, (path, _) in enumerate(self._spoken) if said_in(path, name)},
                {i for i, (_, value) in enumerate(self._spoken) if said_in(value, name)})

    def a_file(self, raw: str) -> bool:
        """Whether RAW, as the question writes it, is the name of a file or folder a row is in,
        or the end of its path (``pyproject.toml``, ``docs/conf.py``, express's
        ``route-middleware`` example; a leading dot as the question may drop it:
        ``pre-commit-config.yaml``)."""
        if self._files is None:
            self._files = set()
            for path in {r["path"] for r in self.rows if r["path"]}:
                parts = path.lower().split("/")
                self._files.update("/".join(parts[i:]).lstrip(".") for i in range(len(parts)))
                self._files.update(p.lstrip(".") for p in parts[:-1])
        return raw.lower().lstrip("./") in self._files

    def says(self, word: str) -> bool:
        """Whether any row's value or source text holds WORD as a word ("build", "still"): a
        plain word no fact says at all may be a removed package's name (see unnamed)."""
        if self._said is None:
            self._said = set(re.findall(r"[\w-]+", "\n".join(
                f"{r['value']}\n{r.get('text') or ''}" for r in self.rows).lower()))
        return word.lower() in self._said


_CACHE: list = [None]
_RUNTIME, _PARAMETER = stored_pair("runtime"), stored_pair("parameter")


_OFFERED: list = [None, None]  # (rows, their columns as JSON bytes): the snapshot's, see offer


def offer_columns(rows: list[dict], columns: bytes | None) -> None:
    """The snapshot's reader (viewcache.load_search) hands over the columns its writer computed
    for ROWS (facts_columns, as JSON); None: the snapshot has none."""
    _OFFERED[:] = [rows, columns]


def offered_columns(rows: list[dict]) -> dict | None:
    """The columns offered for ROWS (these very rows, not a filtered copy); None without."""
    if _OFFERED[0] is not rows or _OFFERED[1] is None:
        return None
    from repomem.service.snapfile import json_member  # (orjson: ~3 ms less of a cold ask)

    try:
        got = json_member(_OFFERED[1])
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


def _facts(rows: list[dict]) -> _Facts:
    if _CACHE[0] is None or _CACHE[0].rows is not rows:
        try:  # the snapshot's columns, when these are its rows
            _CACHE[0] = _Facts(rows, offered_columns(rows))
        except (KeyError, TypeError, ValueError):  # damaged: computed here
            _CACHE[0] = _Facts(rows)
    return _CACHE[0]




def gone_cache(rows: list[dict]) -> dict[frozenset[str], dict[str, list[dict]]]:
    """Where repomem.service.query._removed keeps the removed facts it read for these rows."""
    return _facts(rows).gone


def unnamed(question: str, rows: list[dict]) -> tuple[dict[str, str], set[str]]:
    """Names the question gives (normalised -> as written) that no row bears, not even as an
    earlier name: names of code (`get_terminal_size`), or any word of a question about a
    dependency or about whether something still holds; and the kinds of fact it asks for.
    What only a removed fact bore (repomem.service.query._removed).  A file or folder a current
    fact is in names no removed fact: "what is the build backend in pyproject.toml?" must not read the
    store of record (chromadb's import, and a wait while a writer holds the store)."""
    facts = _facts(rows)
    q = parse(question)
    kinds = set(q.kinds)
    plain = "dependency" in kinds or q.still
    out = {name: raw for name, shaped, raw in q.identifiers(facts.project)
           if (shaped or plain and not q.is_still_word(raw) and not facts.says(raw))
           and not (_bears(facts, name, shaped, raw) or facts.images.get(name)
                    or facts.a_file(raw))}
    return out, kinds


def _bears(facts: _Facts, name: str, shaped: bool, raw: str) -> bool:
    """Whether a row bears the name now or bore it earlier; a function's or class's name as
    spelled, when the question writes it as code (express's removed `res.sendfile` is not
    `res.sendFile`)."""
    rows = facts.rows
    if not shaped:
        return bool(facts.names.get(name) or facts.retired.get(name))
    if naming.tails(facts).get(name):
        return True
    return any(rows[i]["kind"] not in _CODE_NAMES or _spelled(rows[i], raw)
               for i in facts.names.get(name, ())) \
        or any(rows[i]["kind"] not in _CODE_NAMES or e[0] == raw for i, e in facts.retired.get(name, ()))


def _spelled(row: dict, raw: str) -> bool:
    """Whether a function or class bears RAW as spelled (function names are case-sensitive:
    `Request` is a class, not the function request): its name, less a leading underscore, which
    marks privacy, not another name (`get_text_stream` is _get_text_stream), or a name code
    calls it by (`Context.invoke`, click.get_terminal_size)."""
    return row["value"].lstrip("_") == raw.lstrip("_") or raw in qualnames(row)


def _own_settings(facts: _Facts, name: str, hits: list[int]) -> list[int]:
    """HITS less the settings that bear NAME only as their owner's, when it names code: "how does
    httpx stream a response?" -- a response (the class Response) names no setting of that class,
    Response.default_encoding, unless it is said too; nor a stream (the function stream)
    stream.verify, its parameter's default."""
    if any(facts.rows[i]["kind"] in _CODE_NAMES for i in facts.names.get(name, ())):
        return [i for i in hits if not _owned_by(facts.rows[i], name)]
    return hits


def _owned_by(row: dict, name: str) -> bool:
    """Whether a setting bears this name only as its owner's (``Response`` of
    ``Response.default_encoding``), not as its own."""
    if row["kind"] != "config":
        return False
    own = own_names(row["key"])
    return name not in {norm_ident(m) for n in own for m in (n, uncamel(n))}


def _exact(q: Question, facts: _Facts, t: int, kinds: set[str]):
    """Per row, how many identifiers of the question name it; and lineage notes for the names
    that only a retired version bore.  Each named signal below gives lists of rows, each list
    adding 1 to its rows, in order (a later signal may read what an earlier one counted)."""
    import numpy as np

    exact = np.zeros(len(facts.rows), dtype=np.int32)
    lineage: list[dict] = []
    for signal in _NAMING:
        for hits in signal(q, facts, t, kinds, exact, lineage):
            exact[hits] += 1
    return exact, lineage


def _by_identifiers(q: Question, facts: _Facts, t: int, kinds: set[str], exact, lineage):
    """The rows each identifier of the question names (_identifier_rows): once, once more for a
    name written as code (`click.echo`, open_file, maxAge says more than a plain word another
    fact bears: "colors", examples/colors' script), once more for the function spelled as asked
    over its private namesake ("the echo function" is `echo`, not `EchoingStdin._echo`).  A
    name no current fact bears may be a retired one (_retired_rows)."""
    rows = facts.rows
    for name, shaped, raw in _project_version(q, facts, kinds) or q.identifiers(facts.project):
        hits = _identifier_rows(q, facts, kinds, name, shaped, raw)
        if hits and (shaped or len(hits) <= RARE):
            yield hits
            if shaped and code_shaped(raw):
                yield hits
            spelled = [i for i in hits if rows[i]["kind"] in _CODE_NAMES and rows[i]["value"] == raw]
            if len(spelled) < len(hits):
                yield spelled
            spelled = naming.spelled(rows, hits, raw) if shaped and code_shaped(raw) else []
            if len(spelled) < len(hits):  # `__version__`, not main.version.is_flag
                yield spelled
        if not hits:
            yield from _retired_rows(facts, name, shaped, raw, t, lineage)
    for hits in naming.module_rows(facts, q.literal_words):  # github.com/gosimple/slug
        yield from (hits, hits)


def _project_version(q: Question, facts: _Facts, kinds: set[str]) -> list[tuple[str, bool, str]]:
    """"which version is click at?", "what version number does express declare in its package
    metadata?": no word names a fact, so the project's own version (project.version,
    __version__, package.json's version) of its own files: the identifier ("version", True, "")
    and the kinds that hold it (added to KINDS); so does a release of the project ("Release
    0.27.2", "bump the version for the next release"), whatever else it names."""
    if q.asks_release and not q.asks_function:
        kinds.update({"config", "constant"})
        return [("version", True, "")]
    if q.asks_function or "python" in q.tokens or "version" not in q.tokens or any(
            facts.names.get(n) or facts.retired.get(n) or facts.images.get(n)
            or shaped and naming.tails(facts).get(n)
            for n, shaped, _ in q.identifiers(facts.project) if not _own_project(facts, n, q)) \
            or naming.module_rows(facts, q.literal_words):
        return []
    kinds.update({"config", "constant"})
    return [("version", True, "")]


def _identifier_rows(q: Question, facts: _Facts, kinds: set[str], name: str, shaped: bool,
                     raw: str) -> list[int]:
    """The current rows one identifier names.  A plain word names a function only by
    coincidence ("output", "source"); it names a dependency or a setting when few facts bear it
    ("blinker", "pytz").  Function names are case-sensitive (`Request` is a class, not the
    function request), less a leading underscore, which marks privacy (`get_text_stream` is
    _get_text_stream); a function asked by what it does is not the one its question quotes."""
    rows = facts.rows
    hits = [i for i in facts.names.get(name, ()) if rows[i]["kind"] not in _CODE_NAMES
            or (shaped and not q.asks_function and _spelled(rows[i], raw))]
    if not hits and shaped:  # "the gorm version": github.com/jinzhu/gorm
        hits = naming.tails(facts).get(name, [])
    if shaped and "." in raw:  # `java.version`: properties.java.version
        hits = sorted(set(hits) | set(naming.dotted(facts).get(raw, ())))
    if not hits and not shaped and "route" in kinds and plural_of_name(name):
        # "which route follows a user?": the route of `follow` (POST /follow/<username>)
        hits = [i for i in facts.names.get(name[:-1], ()) if rows[i]["kind"] == "route"]
    if name in q.version_slots and name not in facts.project:
        # "what mypy version": the package, not the [tool.mypy] settings that bear its name;
        # "what redis version", no package of that name: the image a service runs (redis:8.4)
        deps = [i for i in hits if rows[i]["kind"] == "dependency"]
        images = facts.images.get(name, [])
        if deps or images:
            hits = deps or images
            kinds.clear()
            kinds.update({"dependency"} if deps else {rows[i]["kind"] for i in images})
    if not shaped and raw:
        # "where are static files collected": a plain word with a word qualifying it names
        # a fact only with that word too -- static files are not pre-commit's hooks' files
        hits = _own_settings(facts, name, _qualified(q, raw, rows, hits))
    if not raw:  # the project's own version: its manifest's or __version__, not an
        # example's or a test's, nor a tool's file format version (.readthedocs.yaml)
        hits = [i for i in hits if facts.own[i]] or hits
        hits = [i for i in hits if _PROJECT_VERSION.search(rows[i]["key"])] or hits
    return hits


def _retired_rows(facts: _Facts, name: str, shaped: bool, raw: str, t: int, lineage: list[dict]):
    """The rows whose earlier version bore NAME (`get_binary_stream`, now _get_binary_stream,
    which a function's exact spelling does not meet), with a lineage note each.  A retired
    function name is matched as spelled (`Request` is not the function once named request),
    even in "where did `same_origin` go: which function is it?"; not an item of a list, whose
    values move when the list is reordered (CI's matrix entry 3 was named Windows and is now
    Mac, but Windows is not now Mac)."""
    rows = facts.rows
    old = [(i, e) for i, e in facts.retired.get(name, ()) if e[2] <= t
           and (rows[i]["kind"] in _CODE_NAMES and shaped and e[0] == raw
                or rows[i]["kind"] not in _CODE_NAMES and not _LIST_ITEM.search(rows[i]["key"]))]
    if old and (shaped or len(old) <= RARE):
        for i, (value, commit, ended) in old:
            yield [i]
            if value != rows[i]["value"]:  # not a value that came back ("`ejs` is now `ejs`")
                lineage.append({"name": value, "key": rows[i]["key"], "now": rows[i]["value"],
                                "commit": commit, "at": ended})


def _by_adoption(q: Question, facts: _Facts, t: int, kinds: set[str], exact, lineage):
    """"when did click switch to flit?": the settings and packages named so or whose value says
    it (build-backend = flit_core.buildapi, DATABASE_URL = postgres://...); once more what came
    when it was taken up: the package of that name, and the files named after it
    (.pre-commit-config.yaml, jest.config.ts, src/prisma/): "when did the project add
    whitenoise?" is the dependency of 2017, not the storage backend set in 2025."""
    took = taken_up(q, facts.rows)
    if not took:
        return
    named = set(facts.names.get(took.replace(" ", "_"), ()))
    own_file, saying = facts.mentioning(took)
    hits = [i for i in sorted(named | own_file | saying) if facts.rows[i]["kind"] not in _NOT_TAKEN_UP]
    yield hits
    yield [i for i in hits if i in own_file or i in named and facts.kind[i] == "dependency"]


def _by_exception(q: Question, facts: _Facts, t: int, kinds: set[str], exact, lineage):
    """"which exception is raised on a timeout": TimeoutException (not the Timeout config class,
    nor a timeout setting): a word and the exception named after it."""
    if "class" not in kinds or not q.says_exception:
        return
    for word in q.lower_words:
        raised = [i for suffix in ("exception", "error") for i in facts.names.get(word + suffix, ())
                  if facts.rows[i]["kind"] == "class"]
        if 0 < len(raised) <= RARE:
            yield raised


def _by_image(q: Question, facts: _Facts, t: int, kinds: set[str], exact, lineage):
    """"what python version does the dockerfile use?": the python image (the word "python" names
    the interpreter's facts, not an identifier); not "what is the node environment?", NODE_ENV."""
    if "docker" not in kinds or not q.says_image:
        return
    for word in q.image_names:
        images = facts.images.get(word, [])
        if 0 < len(images) <= RARE and not exact[images].any():
            yield images


def _by_class_name(q: Question, facts: _Facts, t: int, kinds: set[str], exact, lineage):
    """"which class represents the URL?": a word spelled as a class's name (capitalised, not the
    question's first word) names it, though "url" frames questions; "which class represents a
    choice parameter type?": Choice(ParamType), not ParamType (facts.subclasses)."""
    if "class" not in kinds:
        # "add a pool timeout field to Limits like Timeout has": the classes it spells, unless
        # it asks for code of another kind, a number (a setting's value), or names a fact
        # otherwise ("what does GreetingController give `template`?": a member of the class);
        # not a class said as the owner of what is asked ("the size in uvicorn's Config")
        if kinds & {"function", "route"} or q.asks_number or exact.any():
            return
        spelled = _spelled_classes(q, facts, exact, q.classes_asked)
        if spelled:
            kinds.add("class")
            yield from spelled
        return
    yield from _spelled_classes(q, facts, exact, q.capitalised)
    sub = facts.subclasses(set(q.words))
    if 0 < len(sub) <= RARE:
        yield sub


def _spelled_classes(q: Question, facts: _Facts, exact, words) -> list[list[int]]:
    """The classes spelled as one of WORDS (capitalised words of the question), each a list of
    at most RARE rows that nothing named yet."""
    out = []
    for word in sorted(words):
        spelled = [i for i in facts.names.get(norm_ident(word), ())
                   if facts.rows[i]["kind"] == "class" and facts.rows[i]["value"] == word]
        if 0 < len(spelled) <= RARE and not exact[spelled].any():
            out.append(spelled)
    return out


def _by_joined_words(q: Question, facts: _Facts, t: int, kinds: set[str], exact, lineage):
    """Words of the question joined into a name: "the HTTP read timeout" is read_timeout, "logs
    the user out" the route /logout, "which exception is raised for a bad parameter"
    BadParameter; "the default max connections", which no fact is named, the value that passes
    it (DEFAULT_LIMITS = Limits(max_connections=100, ...))."""
    rows = facts.rows
    for name, _, _ in q.joined:
        hits = [i for i in facts.names.get(name, ()) if rows[i]["kind"] not in _CODE_NAMES] \
            or facts.names.get("/" + name, []) or naming.route_ends(facts).get(name, [])
        if not hits:  # "the article comment list": ArticleCommentList, a class or function
            hits = [i for i in facts.names.get(name.replace("_", ""), ()) if rows[i]["kind"] in
                    (("class",) if "class" in kinds else _CODE_NAMES)]
        # `node-version: ${{ matrix.node-version }}` states no version: the matrix it reads does
        hits = [i for i in hits if not _REFERENCE.fullmatch(rows[i]["value"])] or hits
        hits = _own_settings(facts, name, hits)  # "open files": open_file, not open_file.lazy
        if not hits:
            hits = facts.passing(name)
        if hits and len(hits) <= RARE:
            yield hits


# The signals that name rows, in the order _exact counts them.
_NAMING = (_by_identifiers, _by_adoption, _by_exception, _by_image, _by_class_name,
           _by_joined_words)


_NOT_TAKEN_UP = ("function", "class", "route")  # code is written, not adopted


def taken_up(question: str | Question, rows: list[dict]) -> str | None:
    """The name a when-question says the project took up (question.adopted: "switch to flit"),
    or the one it says the project added when a package bears that name ("when did we add
    whitenoise?"; "when did we add a login?" asks for code).  Ranking and the answer's
    ``adopted`` notes both ask here, so they agree."""
    q = parse(question) if isinstance(question, str) else question
    if q.adopted:
        return q.adopted
    added = q.added
    if added:
        facts = _facts(rows)
        if any(facts.kind[i] == "dependency" for i in facts.names.get(added.replace(" ", "_"), ())):
            return added
    return None

# a keyword argument or an object's key in a value: `(max_connections=`, `{ maxAge:`, `, b: `
_PASSED = re.compile(r"[({,]\s*([A-Za-z_]\w*)\s*(?:=(?!=)|:(?![:/]))")
# an environment variable a value reads by name: env("DATABASE_URL"), ${DATABASE_URL}
_ENV_NAMED = re.compile(r"""\benv\(\s*["']([A-Za-z_]\w*)["']\s*\)|\$\{([A-Za-z_]\w*)(?::?-[^}]*)?\}""")
_LIST_ITEM = re.compile(r"\.\d+(?:\.|$)")  # include.3.name, steps.0.uses: a key by position
_REFERENCE = re.compile(r"\$\{\{[^}]*\}\}")  # a GitHub Actions expression standing for a value


def _own_project(facts: _Facts, name: str, q: Question) -> bool:
    """NAME is the repository's own project, which none of its own dependencies bears: "the
    express version" (of express) is its own version, though examples'
    `app.use(express.static(...))` bear the name; so is "the current version of click", though
    click's examples depend on click, unless the question asks about them ("which click version
    do the examples require?")."""
    if name not in facts.project:
        return False
    aux = q.asks_aux
    return not any(facts.kind[i] == "dependency" and (aux or facts.own[i])
                   for i in facts.names.get(name, ()))


def _qualified(q: Question, raw: str, rows: list[dict], hits: list[int]) -> list[int]:
    """HITS whose key, subject or tool (tsconfig.json's typescript) also holds the word that
    qualifies RAW in the question (the content word right before it: "static" in "static
    files"), or else the noun RAW qualifies (right after it: "server" in "email server"); all of
    them when there is no such word."""
    # ...nothing qualifies it (or a stop word: "the", "which"); but it may qualify a noun after
    # it: "the email server" is a server, not the email fields of two forms ("the email field",
    # "the email address" are about email)
    word = qualifying_word(q.text, raw)
    if word is None:
        return hits
    words = set(lexical_tokens(word))
    if not words:
        return hits
    return [i for i in hits if words & set(lexical_tokens(
        f"{rows[i]['key']} {rows[i]['subject']} {tool_of(rows[i]['path']) or ''}"
        .replace(".", " ").replace("_", " ")))]


SUMMARY_TOP = 30  # the best candidates so far whose summaries are compared with the question


def _summary_said(question: str, rows: list[dict], best, kinds: set[str]):
    """Per row, 1 where the question says every word of the fact's summary (the first sentence
    of its doc comment, two words at least): "get paginated articles" is all of the route
    documented "Get paginated articles", but not of "Get paginated feed articles", which BM25
    scores higher for its one more rare word shared with the question."""
    import numpy as np

    out = np.zeros(len(rows), dtype=np.float64)
    asked = set(lexical_tokens(question))
    for i in best:
        row = rows[i]
        if row["kind"] not in kinds or not row.get("purpose"):
            continue
        summary = re.split(r"\s+-\s+|(?<=[.!?:])\s|\(", row["purpose"], maxsplit=1)[0]
        words = set(lexical_tokens(summary))
        out[i] = len(words) >= 2 and words <= asked
    return out


@functools.lru_cache(maxsize=1)
def _frame_tokens() -> frozenset[str]:
    """The words that frame a question ("require" is "requirements" once stemmed), group names
    excepted: "the dev settings" names settings/dev.py."""
    return frozenset(t for w in _FRAME - set(_GROUPS) for t in lexical_tokens(w))


def _named_in_path(question: str, rows: list[dict], named, project: set[str]):
    """Per row, 1 where the question names a part of the file path that sets this named fact
    apart from the others of its name ("the production settings": `DEBUG` of
    settings/production.py, not of settings/base.py).  Words in every such path decide nothing."""
    import numpy as np

    out = np.zeros(len(rows), dtype=np.float64)
    alike: dict[str, list[int]] = {}
    for i in named:
        row = rows[i]
        name = row["value"] if row["kind"] in ("function", "class") else \
            row["key"].rsplit(":", 1)[-1]
        alike.setdefault(name, []).append(int(i))
    asked = set(lexical_tokens(question)) - {t for p in project for t in lexical_tokens(p)} \
        - _frame_tokens()
    for group in alike.values():
        if len(group) < 2:
            continue
        parts = [set(lexical_tokens(rows[i]["path"].replace("/", " "))) for i in group]
        common = set.intersection(*parts)
        for i, p in zip(group, parts):
            out[i] = bool((p - common) & asked)
    return out


def _rrf(scores, weight: float, only_positive: bool = False):
    """Reciprocal-rank-fusion terms of one signal: weight / (RRF_K + rank), ties by position,
    for the first RRF_DEPTH rows; 0 below them (a term of weight / 4,157 or less, which moves
    no row of a large store into the answer, and would cost a sort of every row)."""
    import numpy as np

    out = np.zeros(len(scores), dtype=np.float64)
    if only_positive:  # BM25 scores few rows: rank those
        some = np.flatnonzero(scores > 0)
        order = some[_best(scores[some], RRF_DEPTH)]
    else:
        order = _best(scores, RRF_DEPTH)
    out[order] = weight / (RRF_K + 1 + np.arange(len(order)))
    return out


def _best(score, m: int):
    """The M rows of the highest SCORE, best first, ties by position: the first M of a stable
    argsort of -SCORE, without sorting every row."""
    import numpy as np

    if len(score) > m > 0:
        some = np.flatnonzero(score >= _at_most_mth(score, m))  # the M best, and a few more
        return some[np.argsort(-score[some], kind="stable")][:m]
    return np.argsort(-score, kind="stable")[:m]


def _at_most_mth(score, m: int):
    """A value no higher than the M-th highest of SCORE (0 < M < len(SCORE)): the M-th highest
    of an evenly spaced sample of 64 * M rows (a subset's M-th highest is at most the whole's),
    so that about len(SCORE) / 64 rows reach it; of every row when the sample would be all."""
    import numpy as np

    step = len(score) // (64 * m)
    sample = score[::step] if step > 1 else score
    return np.partition(sample, len(sample) - m)[len(sample) - m]


def _order(tier, level, aside, fused, key_order, n: int):
    """The N first rows by (-TIER, ASIDE, -LEVEL, -FUSED, KEY_ORDER): every named row (tier 1)
    and, when they are fewer than N, the rest's best by FUSED (every row tied with the last
    one taken too), ordered by those keys: the order a sort of every row gives."""
    import numpy as np

    named = np.flatnonzero(tier > 0)
    some = named
    if len(named) < n:
        m = n - len(named)
        rest = fused if not len(named) else fused[tier <= 0]
        if len(rest) > m:
            some = np.flatnonzero((fused >= _at_most_mth(rest, m)) | (tier > 0))
        else:
            some = np.arange(len(fused))
    return some[np.lexsort((key_order[some], -fused[some], -level[some], aside[some],
                            -tier[some]))][:n]


def _first_route_first(rows: list[dict], best, level):
    """A handler with several routes (Flask's ``@bp.route('/')`` over ``@bp.route('/index')``)
    answers first with the one declared first, the URL its author lists as the page's own,
    whichever of them the question's words happen to match better.  Only routes of one handler
    at one exact-match level trade places, among the positions they already hold."""
    groups: dict[tuple, list[int]] = {}
    for pos, i in enumerate(best):
        row = rows[i]  # the benchmark's baselines rank snippets that have no line
        if row["kind"] == "route" and row.get("line") is not None \
                and row.get("subject", "").startswith("route of "):
            groups.setdefault((row.get("path"), row["subject"], int(level[i])), []).append(pos)
    best = list(best)
    for positions in groups.values():
        if len(positions) > 1:
            ordered = sorted((best[p] for p in positions), key=lambda i: (rows[i]["line"], i))
            for p, i in zip(positions, ordered):
                best[p] = i
    return best




def _names_model(q: Question, facts: _Facts) -> bool:
    words = q.model_words
    # "home page": the class HomePage (a class is known by its name whole, homepage), then page
    return any(facts.rows[i]["kind"] == "class" for k in range(len(words))
               for name in {norm_ident("_".join(words[k:])), norm_ident("".join(words[k:]))}
               for i in facts.names.get(name, ()))


def _asked(q: Question, facts: _Facts, t: int):
    """The kinds of fact the question asks for, and per row how many of its identifiers name the
    row (see _exact; the callers of a function it names, the packages of a role it names, the
    code that catches what it says is handled); lineage notes for retired names."""
    import numpy as np

    rows = facts.rows
    kinds = set(q.kinds)
    if not kinds and _names_model(q, facts):
        kinds = {"class"}
    name = q.callee
    callers = facts.callers(name) if name else []
    if callers:  # "which functions call make_context?": its callers first, not make_context
        kinds = {"function"}
        exact, lineage = np.zeros(len(rows), dtype=np.int32), []
        exact[callers] = 1
    else:
        exact, lineage = _exact(q, facts, t, kinds)
        roles = q.package_roles
        if roles:  # "which orm does the project use?": the dependencies that fill the role
            filling = sorted({i for p in roles for i in facts.names.get(p, ())
                              if rows[i]["kind"] == "dependency"})
            if filling:
                kinds = {"dependency"}
                exact[filling] = np.maximum(exact[filling], 1)
    words = q.words
    if facts.in_body.any():  # a value in a function's body is named with its function or callee:
        # "which status codes are redirects?" does not name ASGITransport's local status_code
        for i in np.flatnonzero(facts.in_body & (exact > 0)):
            context = own_names(rows[i]["key"])[0].split(".")[:-1]
            if not words & {w for part in context for w in _name_words(part)}:
                exact[i] = 0
    if q.handling:  # "how does click handle keyboard interrupts?": the code that catches
        # KeyboardInterrupt is named by it, over STDIN_HANDLE, which only bears the verb as its
        # name ("which click function swallows exceptions?": the project's name, not ClickException)
        project = {w for p in facts.project for w in lexical_tokens(p)}
        catchers = facts.catching(set(words) - project)
        if 0 < len(catchers) <= RARE:
            exact[catchers] = np.maximum(exact[catchers], 1)
    if q.asks_duration:  # "how long is a password reset token valid?": a setting the
        # question names answers it when its value is a number (not ResetPasswordForm.password)
        for i in np.flatnonzero((exact > 0) & facts.of_kind(("config", "constant"))):
            if not _DIGIT.search(rows[i]["value"]):
                exact[i] = 0
    return kinds, exact, lineage


def _features(q: Question, facts: _Facts, kinds: set[str], named, lex, lexical, sims,
              w: dict[str, float], every: bool = False):
    """The feature columns of scorer.FEATURES over all rows (each a numpy array, 1/0 for a
    rule's test) and the score, their weighted sum.  Features of weight 0 are skipped unless
    EVERY (fitting reads them all).  LEX: the Lexical index; LEXICAL: its scores."""
    import numpy as np

    rows = facts.rows
    size = len(rows)
    cols: dict[str, object] = {}
    score = np.zeros(size, dtype=np.float64)

    def add(feature: str, column) -> None:
        nonlocal score
        cols[feature] = column
        if w[feature]:
            score = score + np.asarray(column, dtype=np.float64) * w[feature]

    def wants(feature: str) -> bool:
        return every or bool(w[feature])

    add("lexical_rrf", _rrf(lexical, 1.0, only_positive=True))
    add("vector_rrf", _rrf(sims, 1.0))
    wanted = facts.of_kind(kinds)
    if kinds & {"dependency", "python"}:
        wanted |= facts.runtime
    add("kind_wanted", wanted)
    if q.asks_number:  # "how long is a jwt valid?": 60d, not the secret it is signed with
        add("number_value", facts.numeric())
    methods = q.route_methods if "route" in kinds else frozenset()
    if methods:  # "which route returns the user's feed?": a GET, not POST /users (a route's
        # methods: GET of "GET /api/articles/feed", GET and POST of "GET,POST /edit")
        add("route_method", facts.answering_with(methods))
    wanted_groups = q.groups if "dependency" in kinds else frozenset()
    if wanted_groups:  # "the docs build", "type checking": that group's pin
        add("dependency_group", np.isin(facts.group, sorted(wanted_groups)) & wanted)
    else:  # the root project's runtime requirement over examples, docs and dev pins
        add("root_dependency", facts.root_dep & wanted)
    # for other kinds, the project's own files over its examples, docs and tests; a question of
    # no particular kind too ("how are cookies stored between requests?"), unless it asks about
    # them ("which test checks that cookies persist?")...
    own = facts.own & ~facts.of_kind(("dependency",)) & (wanted if kinds else not q.asks_aux)
    add("own_file", own)
    # ...and a function or class of the code itself over a test's: a test's name and docstring
    # paraphrase the behaviour it checks (test_cookie_persistence)
    add("own_code", own & wanted & facts.of_kind(_CODE_NAMES))
    if not q.asks_aux:  # a test's own functions least: no question not about the tests is
        add("test_code", facts.test_code)  # answered by one
    if not kinds or q.asks_how:  # "how are cookies stored?": the API before a private helper
        # of it (a private method may be how it is done: "how is a url merged?")
        add("private", facts.private & facts.of_kind(("class",)) if kinds else facts.private)
    verb = q.action
    about = set(q.words) - {stem_word(verb or "")}
    doers = facts.doing(verb, about) if verb else []
    if 0 < len(doers) <= RARE:  # "how are passwords hashed?": what calls bcrypt.hash...
        # ...those named after what the question is about, when some are ("how is a comment
        # deleted?": deleteComment, not deleteArticle, though both call delete)
        named_so = [i for i in doers if about & set(lexical_tokens(rows[i]["value"]))]
        add("does_action", _at(size, named_so or doers))
    if kinds and kinds <= {"route", "function", "class"}:  # (among the best so far)
        add("summary_said", _summary_said(q.text, rows, _best(score, SUMMARY_TOP),
                                          kinds))
    add("path_named", _named_in_path(q.text, rows, np.flatnonzero(named), facts.project))
    # "which example shows content negotiation?": what lies in examples/content-negotiation/
    add("in_named_dir", _at(size, facts.in_dirs({n for n, _, _ in q.joined})))
    tier = named & (wanted if kinds else True)
    add("named_other_kind", named & ~tier)  # a strong signal, not a tier
    add("owner_named", naming.owner_named(facts, q.capitalised))  # "uvicorn's Config"
    if wants("alias_rrf"):  # "the bind address": Config.host, by the --host option's help
        add("alias_rrf", _rrf(alias.scores(facts, q.words - facts.project), 1.0, only_positive=True))
    if facts.param_of.any():  # a function's parameter defaults answer when it is named: not
        # get.timeout for "what is the default timeout?", nor send_email.sync for "the admin
        # email" (httpx's nine request functions share four defaults)
        said = {n for x in q.identifiers(facts.project) for n in (x[0], x[2].lower())}
        said |= {n.rsplit(".", 1)[-1] for n in said}
        add("parameter_unsaid", facts.unsaid_parameters(said, q.words))
    if facts.in_body.any() and not q.asks_number:
        # a value in a function's body answers a number asked, or its own name ("when does the
        # jwt expire?"), not the words of the code around it ("what is the secret used to sign
        # tokens?" is not jwt.sign's expiresIn)
        add("body_value_unsaid", facts.body_values_unsaid(q.words))
    if "dependency" in kinds:  # "upgrade Spring Boot to 4.1": the pin that states a version,
        # not the starters whose version the parent manages
        add("unversioned", facts.unversioned & wanted)
    if wants("lexical_share"):
        add("lexical_share", lexical / max(float(lexical.max()), 1e-9))
    if wants("vector_sim"):
        add("vector_sim", np.asarray(sims, dtype=np.float64))
    for field in ("name", "purpose"):
        if wants(f"{field}_share"):
            alone = lex.field_scores(q.text, field, facts.project | q.framing) \
                if hasattr(lex, "field_scores") else _field_scores(lex, q.text, field, facts.project | q.framing)
            add(f"{field}_share", alone / max(float(alone.max()), 1e-9))
    return cols, score, tier.astype(np.int32)


def _at(size: int, where) -> object:
    import numpy as np

    out = np.zeros(size, dtype=bool)
    out[list(where)] = True
    return out


def _field_scores(lex, question: str, field: str, drop):
    """BM25 of one field alone (unweighted), from the Lexical index's columns."""
    import numpy as np

    out = np.zeros(lex.n, dtype=np.float64)
    drop = {stem_word(d) for d in drop}
    for t in sorted(set(lexical_tokens(question)) - drop):
        i = lex.vocab.get(f"{field}:{t}")
        if i is not None and i + 1 < len(lex.indptr):
            s, e = lex.indptr[i], lex.indptr[i + 1]
            out[lex.indices[s:e]] += lex.data[s:e]
    return out


def _aside(q: Question, facts: _Facts, tier):
    """Per row, 1 for a named fact of an example, docs or tests when the project's own file has
    one of the same name ("where is the error handler?": the app's own, before an example's,
    however many more of the question's words it says); none when the question is about them."""
    import numpy as np

    rows = facts.rows
    aside = np.zeros(len(rows), dtype=np.int32)
    if not q.asks_aux:
        alike: dict[str, list[int]] = {}
        for i in np.flatnonzero(tier):
            alike.setdefault(rows[i]["key"].rsplit(":", 1)[-1] if rows[i]["kind"] not in _CODE_NAMES
                             else rows[i]["value"], []).append(int(i))
        for group in alike.values():
            if any(facts.own[i] for i in group):
                aside[[i for i in group if not facts.own[i]]] = 1
    return aside


def feature_table(question: str, rows: list[dict], sims, lex, t: int) -> dict:
    """What rank reads of every row, for fitting the weights (bench/fit_ranker.py): every
    feature column, and the named tiers that order facts before the score does (``level``:
    rows of equal level are ordered by the score alone)."""
    import numpy as np

    q = parse(question).measured
    facts = _facts(rows)
    kinds, exact, _ = _asked(q, facts, t)
    lexical = lex.scores(q.text, facts.project | q.framing,
                         "by_purpose" if q.asks_function else "default",
                         keep={"name"} if q.names_setting else ())
    cols, score, tier = _features(q, facts, kinds, exact > 0, lex, lexical, sims, scorer.weights(),
                                  every=True)
    aside = _aside(q, facts, tier)
    level = np.stack([tier, exact * tier, -aside], axis=1)
    return {"features": {f: np.asarray(cols[f], dtype=np.float64) if f in cols else
                         np.zeros(len(rows)) for f in scorer.FEATURES},
            "level": level, "score": np.round(score, 6), "key_order": facts.key_order}


def rank(question: str, rows: list[dict], sims, lex, t: int, n: int):
    """rows: every version valid at t; sims: their vector similarities (numpy); lex: their
    Lexical index.  Returns (the best n rows, each with its score, best first; lineage notes).

    The order: facts the question names, of a kind it asks for, first (``tier``; among them
    those named by more of its identifiers, and the project's own before an example's of the
    same name); then by the score, scorer's weighted sum of the features (_features)."""
    import numpy as np

    if not rows:
        return [], []
    q = parse(question).measured  # "how wide is the progress bar?": its width
    facts = _facts(rows)
    kinds, exact, lineage = _asked(q, facts, t)
    lexical = lex.scores(q.text, facts.project | q.framing,
                         "by_purpose" if q.asks_function else "default",
                         keep={"name"} if q.names_setting else ())
    named = exact > 0
    _, fused, tier = _features(q, facts, kinds, named, lex, lexical, sims, scorer.weights())
    fused = np.round(fused, 6)
    aside = _aside(q, facts, tier)
    order = _order(tier, exact * tier, aside, fused, facts.key_order, n)
    score = [round(float(tier[i] + fused[i]), 6) for i in order]  # a position keeps its score
    best = _first_route_first(rows, order, exact * tier)
    keep = {rows[i]["key"] for i in best}
    taken = {rows[i]["value"] for i in np.flatnonzero(named) if rows[i]["kind"] in _CODE_NAMES}
    lineage += retired_values(q, [rows[i] for i in best[:3]], t,
                               {(x["key"], x["name"]) for x in lineage}, taken)
    lineage = sorted((x for x in lineage if x["key"] in keep), key=lambda x: (x["at"], x["key"]))
    # what the relevance floor reads (see relevant): the question's words the fact bears (BM25),
    # and whether the question names it
    return [dict(rows[i], score=sc, lexical=float(lexical[i]), named=bool(exact[i] > 0 or tier[i]))
            for i, sc in zip(best, score)], lineage


# -- the relevance floor (the agent's context: nothing rather than something unrelated) -------
# A prompt of only chatter ("thanks, looks good", "ok, continue") has nothing to look up
# (question.has_content).
# A fact whose BM25 score is below a share of the best one's is not shown, however much of the
# budget is left: it shares a word or two with the prompt by chance.  The share is fitted on the
# training repositories' task prompts (bench/fit_ranker.py --floor writes the file: the floor
# that serves the most needed facts, chosen by leave-one-repository-out).
FLOOR_FILE = "rank_weights_floor.json"


def _fitted_floor() -> float:
    from pathlib import Path  # (not importlib.resources: ~10 ms of a cold ask's CPU)

    data = json.loads(Path(__file__).with_name(FLOOR_FILE).read_text("utf-8"))
    return float(data["floor"])


FLOOR = _fitted_floor()


def relevant(question: str, ranked: list[dict]) -> list[dict]:
    """RANKED (rank's rows) less those below the relevance floor: every fact the question names,
    and those whose share of its words scores at least FLOOR of the best; none for a question
    with nothing to look up."""
    if not has_content(question):
        return []
    top = max((x.get("lexical", 0.0) for x in ranked), default=0.0)
    return [x for x in ranked if x.get("named") or
            (top > 0 and x.get("lexical", 0.0) >= FLOOR * top)]

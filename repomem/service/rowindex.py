"""The facts valid at one time as ranking reads them (_Facts): the columns of
repomem.service.columns as numpy arrays, and the indexes a question needs now and then (the
callers of a function, the exceptions a function catches, the settings a value passes, a
function's parameter defaults, ...), each built on the first question that needs it and kept
with the rows while the process answers from the same list (_facts).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from repomem.core.tokens import norm_ident, stem_word, uncamel, written_names
from repomem.service.columns import columns_code, facts_columns
from repomem.service.lexical import calls_of, catches_of, lexical_tokens, own_names
from repomem.service.naming import kept_with_rows
from repomem.service.question import DURATION_NAMES, DURATION_VALUE, STYLE_WORDS, said_in, spoken

# A value that is a number: 30, -1, 0.5, a quantity ("60d", "10mb"), numbers made into one
# (timedelta(days=7), Timeout(5.0))
_NUMERIC = re.compile(r"[-+]?\d[\d_.]*\s*[A-Za-z]{0,5}|[\w.]+\((?:\w+=)?[-+]?\d[\d_.]*"
                      r"(?:,\s*(?:\w+=)?[-+]?\d[\d_.]*)*\)")
# The shapes of a value a question may ask for (question.asked_shape): a path or a URL
# (sqlite:///app.db, ./../gorm.db, logs/app.log, config.yaml: one word with no spaces); one to
# three signs that are no letters or digits ("-", "*", "->"); words shown to people ("protocol
# error; invalid number", "Hello, %s!", "Options"), or signs before a space (": "), not a name,
# code or a path
_SHAPE_VALUE = {
    "file": re.compile(r"[A-Za-z][\w+.-]*://\S+|~?\.{0,2}/[^\s/]\S*|[\w.@-]+(?:/[\w.@-]+)+/?"
                       r"|[\w.-]+\.(?:db|sqlite3?|json|ya?ml|toml|ini|cfg|conf|log|pem|key|crt|"
                       r"env|txt|csv|xml|properties|sock)"),
    "symbol": re.compile(r"[^\w\s]{1,3}"),
    # (no two parts of the pattern match the same characters: linear on a long value)
    "text": re.compile(r"(?=[^a-z]*[a-z])[^\s()\[\]{}=<>/\\_]+(?:\s+[^\s()\[\]{}=<>_]+)+"
                       r"|(?!None$|True$|False$)[A-Z][a-z]+"
                       r"|\s*[^\w\s]{1,3}\s+"),  # (signs and a space: the ": " after a prompt)
}
_EXCEPTION_WORDS = frozenset(lexical_tokens("error exception err exc"))
_SUBSCRIPT = re.compile(r"\[[^\[\]]*\]")  # a base's type arguments: Generic[T]
# a keyword argument or an object's key in a value: `(max_connections=`, `{ maxAge:`, `, b: `
_PASSED = re.compile(r"[({,]\s*([A-Za-z_]\w*)\s*(?:=(?!=)|:(?![:/]))")
# an environment variable a value reads by name: env("DATABASE_URL"), ${DATABASE_URL}
_ENV_NAMED = re.compile(r"""\benv\(\s*["']([A-Za-z_]\w*)["']\s*\)|\$\{([A-Za-z_]\w*)(?::?-[^}]*)?\}""")


@functools.cache
def _duration_words() -> frozenset[str]:
    return frozenset(lexical_tokens(" ".join(DURATION_NAMES)))


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


# a number in a value: not the tail of a name (py311, v2) nor a part of a longer number
_VALUE_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?![\w]|\.\d)")


@kept_with_rows
def _numbers(facts: _Facts) -> dict[str, list[int]]:
    """The rows by the numbers their values state."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        for n in set(_VALUE_NUMBER.findall(row["value"])):
            got.setdefault(n, []).append(i)
    return got


# a value a prompt may say in words: one to four words ("bold cyan"), at most VALUE_SAID_MAX
# characters (the prompt says one word only as a choice, question.Question.phrases: one word
# of its own says too little, a project's name, "true"; a number: number_said)
VALUE_SAID_MAX = 40
_SAID_VALUE = re.compile(r"[A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*){0,3}")


@kept_with_rows
def _said_values(facts: _Facts) -> dict[str, list[int]]:
    """The settings and constants by their value, lower case, where a prompt may say it."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        if row["kind"] not in ("config", "constant"):
            continue
        v = row["value"].strip().strip("'\"`").strip()
        if len(v) <= VALUE_SAID_MAX and _SAID_VALUE.fullmatch(v):
            got.setdefault(v.lower(), []).append(i)
    return got


@kept_with_rows
def _path_endings(facts: _Facts) -> dict[str, list[int]]:
    """The rows by each ending of their path of one folder at least (``complete/build.gradle``
    and ``gs/complete/build.gradle`` of ``gs/complete/build.gradle``)."""
    got: dict[str, list[int]] = {}
    for i, row in enumerate(facts.rows):
        parts = (row["path"] or "").split("/")
        for k in range(len(parts) - 1):
            got.setdefault("/".join(parts[k:]), []).append(i)
    return got


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
        self._project_of: dict[str, set[str]] = {}
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
        self._timed: Any = None
        self._shaped: dict[str, Any] = {}
        self._methods: dict[str, Any] | None = None
        self._params: dict[str, tuple[list[int], frozenset[str], dict]] | None = None
        self._body_words: dict[str, list[int]] | None = None

    def project_of(self, text: str) -> set[str]:
        """The project's names, and the words of the question TEXT that spell one of them
        (spelled_project): words naming the repository asking, not a fact it asks about."""
        got = self._project_of.get(text)
        if got is None:
            got = self.project | spelled_project(text, self.project)
            if len(self._project_of) > 1024:
                self._project_of.clear()
            self._project_of[text] = got
        return got

    def numeric(self) -> Any:
        """Per row, whether its value is a number (see _NUMERIC)."""
        if self._numeric is None:
            import numpy as np

            self._numeric = np.array([_NUMERIC.fullmatch(r["value"]) is not None
                                      for r in self.rows], dtype=bool)
        return self._numeric

    def timed(self) -> Any:
        """Per row, whether it is a setting or a constant named as a time is (a word of
        question.DURATION_NAMES in its own dotted name: keepalive_expiry, reload_delay,
        ACCESS_TOKEN_EXPIRE_MINUTES) or whose value is one (timedelta(days=7), "60d")."""
        if self._timed is None:
            import numpy as np

            names = _duration_words()
            got = self.of_kind(("config", "constant"))
            for i in np.flatnonzero(got):
                row = self.rows[i]
                got[i] = bool(names.intersection(lexical_tokens(own_names(row["key"])[0]))) \
                    or DURATION_VALUE.search(row["value"]) is not None
            self._timed = got
        return self._timed

    def shaped(self, shape: str) -> Any:
        """Per row, whether it is a setting or a constant whose value has SHAPE (a shape of
        question.asked_shape: see _SHAPE_VALUE; "style": every word a style word)."""
        got = self._shaped.get(shape)
        if got is None:
            import numpy as np

            def fits(value: str) -> bool:
                if shape == "style":
                    words = value.lower().replace("_", " ").split()
                    return bool(words) and set(words) <= STYLE_WORDS
                return _SHAPE_VALUE[shape].fullmatch(value) is not None

            got = self.of_kind(("config", "constant"))
            for i in np.flatnonzero(got):  # (settings and constants only: a fraction of the rows)
                got[i] = fits(self.rows[i]["value"])
            self._shaped[shape] = got
        return got

    def stating(self, numbers) -> Any:
        """Per row, whether its value states one of these NUMBERS (``max_connections=100`` of
        "100", ``<6.1,>=6.0`` of "6.1"), not as part of a longer number or a name."""
        index = _numbers(self)
        return _at(len(self.rows), {i for n in numbers for i in index.get(n, ())})

    def in_paths(self, paths) -> Any:
        """Per row, whether it lies in one of PATHS (a path, or the end of one, of one folder at
        least)."""
        index = _path_endings(self)
        return _at(len(self.rows), {i for p in paths for i in index.get(p, ())})

    def value_said(self, phrases) -> Any:
        """Per row, whether it is a setting or constant whose value is one of PHRASES (the
        prompt's runs of two to four words, lower case, and the one words it offers as a choice:
        "option names are bold cyan", "strong or weak")."""
        index = _said_values(self)
        return _at(len(self.rows), {i for p in phrases for i in index.get(p, ())})

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


def spelled_project(text: str, names: set[str] | frozenset[str]) -> set[str]:
    """The words of TEXT that spell a project name of several words (NAMES: normalised, as
    facts_columns gives them): "the gin RealWorld app" of golang_gin_realworld_example_app,
    "mini-redis's" of mini_redis; as the question's words (normalised) and their tokens.  One
    word of such a name alone ("gin") may be the fact asked about: a name counts when two of its
    words, or the whole of it, are said."""
    said = set(lexical_tokens(text))
    shared: set[str] = set()
    for name in names:
        if "_" not in name:
            continue
        parts = set(lexical_tokens(name))
        if name in said or len((parts - {name}) & said) >= 2:
            shared |= parts & said
    out: set[str] = set()
    for word, pieces in written_names(text) if shared else ():
        for part in pieces:  # mini-redis-cli: mini and redis, not cli
            tokens = set(lexical_tokens(part))
            if tokens & shared:
                out |= tokens | {part.lower()}
        if norm_ident(word) in names:
            out |= {norm_ident(word)} | set(lexical_tokens(word)) & shared
    return out


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


def _at(size: int, where) -> object:
    import numpy as np

    out = np.zeros(size, dtype=bool)
    out[list(where)] = True
    return out

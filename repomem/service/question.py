"""What a question's wording says, before any fact is looked at: the kinds of fact it asks for
(intent), the words that may name a fact (identifiers), the dependency groups it names, whether
it asks for a function by what the function does, and the role of a package it asks about
(package_roles, from data/package_roles.toml).

All the wording knowledge is one declarative table, intents.toml beside this module (word lists
and regular expressions, compiled on first use); this module is the only reader of a question's
words.  :func:`parse` reads a question once into a :class:`Question` record whose features
repomem.service.rank and repomem.service.query read."""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path

from repomem.core.tokens import norm_ident, tokens
from repomem.service.lexical import lexical_tokens, route_path


def _load() -> dict:
    # (by its path: importlib.resources costs a cold ask ~10 ms of CPU to import and ask)
    return tomllib.loads(Path(__file__).with_name("intents.toml").read_text("utf-8"))


_T = _load()


class _Pattern:
    """A regular expression of the table, compiled on its first use (a fresh process that asks
    one question compiles only the patterns that question reaches)."""

    __slots__ = ("key", "section", "_rx")

    def __init__(self, key: str, section: str | None = None):
        if section is None:
            section = "patterns" if key in _T["patterns"] else "patterns_case"
        if key not in _T[section]:
            raise KeyError(f"intents.toml has no pattern {key!r} in [{section}]")
        self.key, self.section = key, section
        self._rx: re.Pattern | None = None

    @property
    def rx(self) -> re.Pattern:
        if self._rx is None:
            text = re.sub(r"<part:(\w+)>", lambda m: _T["parts"][m.group(1)], _T[self.section][self.key])
            self._rx = rx = re.compile(text, 0 if self.section == "patterns_case" else re.I)
            return rx
        return self._rx

    def search(self, *a):
        return self.rx.search(*a)

    def match(self, *a):
        return self.rx.match(*a)

    def fullmatch(self, *a):
        return self.rx.fullmatch(*a)

    def finditer(self, *a):
        return self.rx.finditer(*a)

    def findall(self, *a):
        return self.rx.findall(*a)

    def sub(self, *a, **k):
        return self.rx.sub(*a, **k)

    def split(self, *a):
        return self.rx.split(*a)


def _pattern(key: str, section: str | None = None) -> _Pattern:
    return _Pattern(key, section)


def _template(key: str, **names: str) -> re.Pattern:
    """A pattern of [templates] with the names given put in, escaped ({name})."""
    return _compiled_template(key, tuple(sorted(names.items())))


@functools.lru_cache(maxsize=512)
def _compiled_template(key: str, names: tuple[tuple[str, str], ...]) -> re.Pattern:
    section = _T["templates"]
    text = section.get(key) or section[key + "_i"]
    for k, v in names:
        text = text.replace("{" + k + "}", re.escape(v))
    return re.compile(text, re.I if key + "_i" in section else 0)


_INTENTS = {k: set(v) for k, v in _T["kinds"].items()}
_NAMING_INTENTS = {k: set(v) for k, v in _T["naming_kinds"].items()}
_STEMMED = dict(_T["stemmed"])
_GROUPS = dict(_T["groups"])
_FRAME = set(_INTENTS) | set(_T["lists"]["frame"]) | set(_GROUPS)
_CODE_SHAPE = _pattern("code_shape")
_PROJECT_SLOT = _pattern("project_slot")

_VERSION_SLOT = _pattern("version_slot")
_NOT_PACKAGES = set(_T["lists"]["not_packages"])


def version_slots(question: str) -> set[str]:
    """Names standing where a package's name stands in a version question (normalised)."""
    return {norm_ident(question[a:b]) for a, b in _slot_spans(question)}


def _slot_spans(question: str) -> list[tuple[int, int]]:
    out = []
    for m in _VERSION_SLOT.finditer(question):
        g = next(i for i in range(1, len(m.groups()) + 1) if m.group(i))
        name = norm_ident(m.group(g))
        if name and name not in _NOT_PACKAGES and (name not in _FRAME or name in _GROUPS):
            out.append(m.span(g))
    return out


def _without_slots(question: str) -> str:
    """The question with its package names blanked: they say nothing about the kind asked for
    ("which version of py": a package, not Python) nor about a dependency group (`build`)."""
    for a, b in reversed(_slot_spans(question)):
        question = question[:a] + " " * (b - a) + question[b:]
    return question


_QWORD = _pattern("question_word")
_HTTP_METHOD = _pattern("http_method")
_VERSION_AFTER, _VERSION_OF_BEFORE = _pattern("version_after"), _pattern("version_of_before")
_SHAPED, _JS_NAME, _PLURAL = _pattern("shaped"), _pattern("js_name"), _pattern("plural")
_DOES, _GROUP_WORD, _QUOTED = _pattern("does"), _pattern("group_word"), _pattern("quoted")
_SELF_PREFIX = _pattern("self_prefix")
_NAMED = _pattern("named")
_ASKS_FUNCTION = _pattern("asks_function")
_ASKS_MODEL = _pattern("asks_model")
_ASKS_CLASS = _pattern("asks_class")
_NAME_CUE = _pattern("name_cue")
_WHERE_CUE = _pattern("where_cue")
_QUALIFIER = _pattern("qualifier")
_DOES_CUE = _pattern("does_cue")
_DOES_END = _pattern("does_end")
_CLASS_CUE = _pattern("class_cue")
_SETTING_NAME = _pattern("setting_name")
_NOT_OWNERS = set(_T["lists"]["not_owners"])
_ROUTE_WORDS = _pattern("route_words")
_FUNCTION_SAID = _pattern("function_said")
_SETTING = {"config", "constant", "docker"}  # what a setting's name or URL asks for


def _owned(question: str) -> set[str]:
    """The words among name/url/uri that a noun before them owns ("the site name")."""
    return {m.group(2).lower() for m in _SETTING_NAME.finditer(question)
            if m.group(1).lower() not in _NOT_OWNERS}


_HOW_VERB = _pattern("how_verb")
_OPTION = _pattern("option")
_WHERE = _pattern("where")
_HOW_MANY = _pattern("how_many")
_SHAPES = {shape: _pattern(f"asks_{shape}") for shape in ("file", "symbol", "text", "style")}
STYLE_WORDS = frozenset(_T["lists"]["style_words"])
# a time's names and values as code writes them (features.duration_named)
DURATION_NAMES = tuple(_T["lists"]["duration_names"])
DURATION_VALUE = _pattern("duration_value")
_IRREGULAR = dict(_T["irregular"])
_HOW_DOES = _pattern("how_does")
_HOW_DO_IT = _pattern("how_do_it")
_SETUP_VERBS = frozenset(_T["lists"]["setup_verbs"])
_DOCKERFILE = _pattern("dockerfile")
_ASKS_DEFAULT = _pattern("asks_default")
_ASKS_VIEW = _pattern("asks_view")
FILE_SUFFIXES = _T["parts"]["file_suffixes"]
_FILE_NAME = _pattern("file_name")
# Path parts no code calls a module-level function by
_NOT_MODULES = {"src", "lib", "__init__", "index", "."}


def module_names(path: str) -> list[str]:
    """The names code calls a module-level function of PATH by, before a dot: its module and
    packages (``click`` and ``termui`` for src/click/termui.py: ``click.prompt``)."""
    return [p for p in path.rsplit(".", 1)[0].split("/") if p and p not in _NOT_MODULES]


_MEASURED = _pattern("measured")
_DIMENSION = dict(_T["dimension"])
_PORT_SAID = _pattern("port_said")
_DURATION = _pattern("duration")


_HOW_LONG = _pattern("how_long")
_WHEN_ENDS = _pattern("when_ends")
_TIME_COUNT = _pattern("time_count")


def asks_duration(question: str) -> bool:
    """Whether the question asks for a time ("how long is an api token valid?", "how long does
    a session last?", "when does the jwt expire?", "how many seconds is a link good for?"): a
    number, which code names a timeout, an expiry or a ttl."""
    return bool(_HOW_LONG.search(question) and _DURATION.search(question)
                or _WHEN_ENDS.search(question) or _TIME_COUNT.search(question))


def asked_shape(question: str) -> str | None:
    """The shape of the value the question asks for by its noun (intents.toml): "file" (a path
    or a URL: "which SQLite file does the app keep its data in?"), "symbol" ("what character
    does the bar draw?"), "text" ("what error message does the parser give?"), "style" ("in
    which style are option names printed?"); None when it asks none of them."""
    return next((shape for shape, pattern in _SHAPES.items() if pattern.search(question)), None)


def asks_number(question: str) -> bool:
    """Whether the question asks for a number: how many, how much, how wide, how long a time."""
    return bool(_HOW_MANY.search(question)) or asks_duration(question)


def measured(question: str) -> str:
    """The question with the noun of the size it asks for by its adjective after what it is
    asked of ("how wide is the progress bar width?"), so that noun names the setting as "the
    progress bar width" would; a time asked for says "timeout", the word an expiry, a ttl and a
    timeout meet on ("how long is an api token valid timeout?": ``get_token(expires_in=3600)``);
    a port said by what is served on it says "port" for its verb ("port on 8080"); else the
    question."""
    if asks_duration(question):
        body = question.rstrip().rstrip("?").rstrip()
        return f"{body} timeout{question[len(body):]}"
    m = _PORT_SAID.search(question)
    if m and "port" not in tokens(question):  # "serve on 8080": the port on 8080 (the verb
        # names no fact: not nx's targets.serve)
        return f"{question[:m.start()]}port{question[m.start() + len(m.group(1)):]}"
    m = _MEASURED.match(question)
    if m is None:
        return question
    return f"{m.group(1)}{m.group(3)} {_DIMENSION[m.group(2).lower()]}{m.group(4) or ''}{m.group(5)}"


def without_options(question: str) -> str:
    """The question without its command-line options: "how do I add a --version option" asks
    for no version."""
    return _OPTION.sub(" ", question)


def intent(question: str) -> set[str]:
    """The kinds of fact the question's wording asks for; empty when it does not say."""
    kinds: set[str] = set()
    cli = bool(_OPTION.search(question))  # "a --version option": the option is a command line's
    owned = _owned(question)
    question = without_options(_without_slots(question))
    toks = {_STEMMED.get(t, t) for t in tokens(_NAMED.sub(" ", question))}
    named = [n for n in _NAMED.findall(question) if not _FILE_NAME.search(n)]
    if "python" in tokens(" ".join(named)):  # requires-python, python_requires
        toks.add("python")
    for t in toks:
        if t == "name" and "name" in owned \
                or t == "route" and owned & {"url", "uri"} and not _ROUTE_WORDS.search(question):
            kinds |= _SETTING  # the site's name, the redis URL
        elif not (cli and t == "option"):
            kinds |= _INTENTS.get(t, set()) | _NAMING_INTENTS.get(t, set())
    if _HTTP_METHOD.search(question):
        kinds.add("route")
    if "python" in toks:  # "which Python does X require": the interpreter, not a package, nor
        # the package's own version ("Python versions declared in the package metadata")
        kinds = (kinds - {"dependency", "constant", "config"}) | {"python"}
    if asks_number(question):  # a number: a setting or a constant, never a route
        kinds = (kinds - {"route", "function", "class"}) | {"config", "constant"}
    elif not kinds and asked_shape(question):  # a file, a symbol, a text or a style asked by
        kinds = {"config", "constant"}  # nothing else: a setting's or a constant's value
    if _ASKS_VIEW.search(question):  # "which view handles the search box?"
        kinds |= {"function", "class"}
    if _ASKS_DEFAULT.search(question):  # "what name does `main` greet when none is given?": a
        # default, a parameter's value; not the route or the function it names, unless asked for
        said = {k for k, t in (("class", "class"), ("function", "func")) if t in toks}
        kinds = (kinds - {"route", "function", "class"}) | said | {"config", "constant"}
    if "route" in kinds and not _FUNCTION_SAID.search(question):
        kinds.discard("function")  # "which method and path reach X": an HTTP method
    if "class" in toks and "func" not in toks:  # "what is the class `Decoder` called"
        kinds.discard("function")
    elif "func" in toks and "class" not in toks:  # "what is the function `x` called"
        kinds.discard("class")
    if _ASKS_MODEL.search(question):
        kinds = {"class"}
    elif asks_how(question):
        # "where is it done?" may also be answered by where it is declared ("where are the API
        # endpoints registered?": the routes), and by anything when it asks for nothing in
        # particular ("where is the prisma client created?": its schema)
        if not _WHERE.match(question):
            kinds = {"function", "class"}
        elif kinds:
            kinds |= {"function", "class"}
    if _ASKS_CLASS.search(question):  # "which class holds the main method ...?": no function
        kinds = (kinds - {"function", "route"}) | {"class"}  # nor route (a default may be one)
    elif _ASKS_FUNCTION.search(question):
        kinds = {"function"}
    elif _DOCKERFILE.search(question):
        kinds = {"docker"}
    return kinds


def identifiers(question: str, project: frozenset[str] | set[str] = frozenset()) -> list[tuple[str, bool, str]]:
    """(normalised name, spelled as an identifier, as written) for each word that may name a
    fact.  PROJECT: the repository's own names, which name the repository ("click's docs", "the
    dev environment of click") unless the question asks for its version ("what click version
    does the dev environment pin", "version of click")."""
    # ...but "UsageError's exit code", "does res.redirect use": a name written as code is what
    # the question asks about, not the project asking
    slot = {norm_ident(w) for m in _PROJECT_SLOT.finditer(question) for w in m.groups()
            if w and not _CODE_SHAPE.search(w)}
    packages = version_slots(question)
    out: list[tuple[str, bool, str]] = []
    for m in _QWORD.finditer(question):
        quoted, scoped, path, word = m.groups()
        quoted = quoted or scoped
        if path:
            if len(path) > 1:
                out.append((route_path(path), True, path))
            continue
        raw = (quoted or word).strip().rstrip("?.,:;()")
        if raw.startswith("-"):  # a command-line option (`--version`), not a name in the code
            continue
        written = raw
        head, dot, rest = raw.partition(".")
        if dot and rest and norm_ident(head) in project:  # `typer.Option` is Option of typer,
            raw = rest  # not the class TyperOption; `click.echo` is echo
        name = norm_ident(raw.split("(")[0])
        if name in packages:  # "what mypy version": a package's name, however plain
            out += [(name, True, raw)] + _js_alias(name)
            continue
        if not name or name in slot:
            continue
        if name in project and not (
                _VERSION_AFTER.match(question, m.end())
                or _VERSION_OF_BEFORE.search(question[:m.start()])):
            continue
        shaped = bool(quoted) or bool(_SHAPED.search(written))
        if not shaped and _HOW_VERB.search(question, 0, m.start()):
            continue
        # "the echo function", "echo()", "the User model": a plain word written as a name is
        # one -- a capitalised one even when it is a word that frames questions ("the Group
        # class"), a lower-case one not ("which test function ...")
        cued = bool(_NAME_CUE.match(question, m.end())) or (
            raw[:1].isupper() and bool(_CLASS_CUE.match(question, m.end()))) or (
            bool(_WHERE_CUE.match(question, m.end())) and not _qualified_word(question, m.start())) or (
            bool(_DOES_CUE.search(question, 0, m.start())) and bool(_DOES_END.match(question, m.end())))
        if not shaped and not (cued and raw[:1].isupper()) \
                and (name in _FRAME or not set(tokens(raw)) - _FRAME):
            continue
        shaped = shaped or cued
        out.append((name, shaped, raw.split("(")[0]))
        out += _js_alias(name)
    return out


def _qualified_word(question: str, start: int) -> bool:
    """True when a content word stands right before START ("search" in "the search page")."""
    m = _QUALIFIER.search(question, 0, start)
    return m is not None and bool(tokens(m.group(1))) and m.group(1).lower() not in _FRAME


_SELF = _pattern("self")


def framing(question: str) -> set[str]:
    """Words of QUESTION that are no evidence of which fact it asks about: those naming the
    repository itself ("the project", "this repo") and the "model" of "which model stores
    recipes?" (the kind asked for, as "function" is in "which function ...")."""
    out = {m.group(1).lower() for m in _SELF.finditer(question)}
    return out | {"model", "models"} if _ASKS_MODEL.search(question) else out


def _js_alias(name: str) -> list[tuple[str, bool, str]]:
    """Node.js is "node" in package.json's engines; Vue.js is the package vue."""
    if name in ("node_js", "nodejs"):
        return [("node", True, "node")]
    m = _JS_NAME.fullmatch(name)
    return [(m.group(1), True, m.group(1))] if m and name.endswith("_js") else []


_PLAIN_RUN = _pattern("plain_run")


def joined(question: str) -> list[tuple[str, bool, str]]:
    """Adjacent plain words as the one snake_case name they may spell ("the HTTP read timeout"
    -> read_timeout, http_read_timeout): a setting's key is rarely written as code in a
    question.  Such a name counts only where a current fact bears it (repomem.service.tiers._exact)."""
    out: list[tuple[str, bool, str]] = []
    for m in _PLAIN_RUN.finditer(question.replace("`", " ")):
        words = m.group(0).split()
        for n in (2, 3):
            for i in range(len(words) - n + 1):
                raw = "_".join(words[i:i + n])
                out.append((norm_ident(raw), False, raw))
                if len(words[i + n - 1]) > 3 and _PLURAL.search(words[i + n - 1]):
                    # "the node versions": a node-version key states several
                    out.append((norm_ident(raw[:-1]), False, raw[:-1]))
    for m in _PREDICATE.finditer(question):  # "which apps are installed?": installed_apps
        raw = f"{m.group(2)}_{m.group(1)}"
        out.append((norm_ident(raw), False, raw))
    for m in _PHRASAL.finditer(question):  # "which route logs the user out?": logout
        raw = (m.group(2) + m.group(3)).lower()
        out.append((raw, False, raw))
        if m.group(1):  # "when a read times out": read_timeout
            raw = f"{m.group(1)}_{raw}".lower()
            out.append((norm_ident(raw), False, raw))
    return out


_PHRASAL = _pattern("phrasal")


_PREDICATE = _pattern("predicate")


_METHOD_VERBS = tuple((set(methods.split(",")), _pattern(methods, "route_method_verbs"))
                      for methods in _T["route_method_verbs"])


_ROUTE_DOES = _pattern("route_does")


def route_methods(question: str) -> set[str]:
    """The HTTP methods the verb said of a route says it answers with ("which route returns
    ...?": GET); none when no verb is said of it, or verbs of two."""
    if _DOES.search(question):  # "what does the route return?"
        return set()
    verbs = " ".join(m.group(1) for m in _ROUTE_DOES.finditer(question))
    said = [methods for methods, rx in _METHOD_VERBS if rx.search(verbs)]
    return said[0] if len(said) == 1 else set()


def groups(question: str) -> set[str]:
    """Dependency groups the question names ("the docs build", "type checking", `tests-random`)."""
    words = {w.lower() for w in _GROUP_WORD.findall(_without_slots(question))}
    return {_GROUPS[w] for w in words if w in _GROUPS} | \
        {norm_ident(q) for q in _QUOTED.findall(question)}


def names_setting(question: str) -> bool:
    """"What is the site name?": *name* is part of what is asked about (WAGTAIL_SITE_NAME,
    SESSION_COOKIE_NAME, project.name), not a request for a function's or class's name."""
    return "name" in _owned(question)


_CALLERS = _pattern("callers")


_DONE = _pattern("done")


def action(question: str) -> str | None:
    """The verb of "how are passwords hashed?" ("hashed"; "how are emails sent?": "send"), else
    None."""
    m = _DONE.match(question)
    if m is None or m.group(1).lower() != "how":
        return None
    return _IRREGULAR.get(m.group(2).lower(), m.group(2).lower())


def callee(question: str) -> str | None:
    """The name whose callers the question asks for (``make_context``, ``bcrypt.hash``)."""
    m = _CALLERS.search(question)
    name = next((g for g in m.groups() if g), None) if m else None
    return _SELF_PREFIX.sub("", name) if name else None


def asks_how(question: str) -> bool:
    """How the code does something ("how is a relative url merged with the base url?", "how is
    the program name detected?"): a function or class answers.  Not how something is
    configured, set, enabled or stored, nor where or for what ("how is the database configured
    for production?": a setting says), unless by what ("how are proxies configured from
    environment variables?": the code that reads them)."""
    m = _HOW_DOES.search(question)
    done = _DONE.match(question)
    verb = m.group(1) if m else done.group(2) if done else None
    if verb is None:
        does = _HOW_DO_IT.match(question)
        return does is not None and _SETUP_VERBS.isdisjoint(does.group(1).lower().split())
    return not _SETTING_VERB.match(verb) or m is not None and m.group(2).lower() in _BY_WHAT


_SETTING_VERB = _pattern("setting_verb")
_BY_WHAT = set(_T["lists"]["by_what"])


def asks_function(question: str) -> bool:
    """A function asked by what it does ("which helper returns ...")."""
    return bool(_ASKS_FUNCTION.search(question))


_ROLE_WORD = _pattern("role_word")
_ROLE_LEAD = _pattern("role_lead")
_ROLE_ASKED = _pattern("role_asked")
_KIND_WORDS = frozenset(_T["lists"]["kind_words"])
_ROLE_STOPS = frozenset(_T["lists"]["role_stops"]) | _KIND_WORDS
_ROLE_SETTING = _pattern("role_setting")
ROLE_MODIFIERS = 2  # words allowed between "which" and the role ("which python orm")


def _role_words(text: str) -> list[str]:
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in _ROLE_WORD.findall(text.lower())]


@functools.cache
def _roles() -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """(a phrase as words, the packages of its role) for every phrase of data/package_roles.toml."""
    text = (Path(__file__).parent.parent / "data" / "package_roles.toml").read_text("utf-8")
    return tuple((tuple(_role_words(phrase)), frozenset(norm_ident(p) for p in role["packages"]))
                 for role in tomllib.loads(text).values() for phrase in role["asked"])


@functools.cache
def _role_starts() -> dict[str, list[tuple[tuple[str, ...], frozenset[str]]]]:
    """_roles by the first word of the phrase (a question is compared with the phrases it may
    hold only)."""
    out: dict[str, list[tuple[tuple[str, ...], frozenset[str]]]] = {}
    for phrase, packages in _roles():
        if phrase:
            out.setdefault(phrase[0], []).append((phrase, packages))
    return out


def package_roles(question: str) -> frozenset[str]:
    """The packages that fill the role the question asks for by its name ("which orm ...":
    sqlalchemy, prisma, ...), normalized as the facts' names are (norm_ident); empty when it asks for no role, or
    asks how something is done or for a number ("how are passwords hashed?": the code)."""
    if asks_how(question) or asks_number(question) or _ROLE_SETTING.search(question):
        return frozenset()
    lead = _ROLE_LEAD.match(question)
    if lead is None:
        return frozenset()
    words = _role_words(question[lead.end():])
    anywhere = bool(_ROLE_ASKED.search(question))
    found: set[str] = set()
    starts = _role_starts()
    for phrase, packages in (x for w in dict.fromkeys(words) for x in starts.get(w, ())):
        n = len(phrase)
        for at in range(len(words) - n + 1):
            if tuple(words[at:at + n]) != phrase or words[at + n:at + n + 1] and \
                    words[at + n] in _KIND_WORDS:  # "which linter config": the config
                continue
            if anywhere or at <= ROLE_MODIFIERS and not _ROLE_STOPS & set(words[:at]):
                found |= packages
                break
    return frozenset(found)


_ADOPTED = _pattern("adopted")
_WHEN = _pattern("when")
_NOT_TAKEN = set(_T["lists"]["not_taken"])
_NOT_CHOICES = frozenset(_T["lists"]["not_choices"])


_WORD = _pattern("word")
_TWO_WORDS = dict(_T["two_words"])

_ADDED = _pattern("added")


def adopted(question: str, added: bool = False) -> str | None:
    """The name a when-question says the project took up ("switch to flit": flit), in the
    words facts are matched by (see :func:`mentions`); None when it asks no such thing.
    ADDED: the name it says the project added instead ("when did we add redis?")."""
    if not _WHEN.search(question):
        return None
    m = (_ADDED if added else _ADOPTED).search(question)
    if m is None:
        return None
    name = next(g for g in m.groups() if g)
    if name.lower() in _NOT_TAKEN or not name.startswith("@") and _FILE_NAME.search(name):
        return None  # (@prisma/client is a package, not a path)
    name = " ".join(_WORD.findall(name.lower()))
    after = _WORD.match(question[m.end():].lower().lstrip(" `"))
    return _TWO_WORDS.get(f"{name} {after.group(0)}" if after else "", name) or None


def mentions(text: str, name: str) -> bool:
    """Whether TEXT holds NAME (as :func:`adopted` gives it) as words, the last one perhaps as
    a word's start: flit in ``flit_core.buildapi``, postgres in ``postgresql://``, hatch in
    ``hatchling.build``, ruff in ``astral-sh/ruff-pre-commit``."""
    return said_in(spoken(text), name)


def spoken(text: str) -> str:
    """TEXT's words as :func:`mentions` compares them (kept by callers that ask many names)."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def said_in(words: str, name: str) -> bool:
    """:func:`mentions` on words :func:`spoken` gave."""
    return f" {name}" in words if len(name) >= 3 else f" {name} " in words


# -- the question model: a question or prompt read once ------------------------------------------
_ASKS_AUX = _pattern("asks_aux")
_HANDLING = _pattern("handling")
_STILL = _pattern("still")
_EXCEPTION_WORD = _pattern("exception_word")
_IMAGE_WORDS = _pattern("image_words")
_RELEASE = _pattern("release")
_CAPITALISED = _pattern("capitalised")
_THE_MODEL = _pattern("the_model")
_LOWER_WORD, _IMAGE_NAME = _pattern("lower_word"), _pattern("image_name")
_LITERAL_WORDS, _HAS_WORD, _WORDS = _pattern("literal_words"), _pattern("has_word"), _pattern("words")
_ASKED_WHEN, _SINCE_WHEN, _BEFORE = _pattern("asked_when"), _pattern("since_when"), _pattern("before")
_REACHED, _WHO_WHY, _FIRST_SET = _pattern("reached"), _pattern("who_why"), _pattern("first_set")
_TASK, _ING_ROUTE = _pattern("task"), _pattern("ing_route")
_ABOUT = frozenset(_T["lists"]["about"])
CHATTER = frozenset(_T["lists"]["chatter"].split())


def code_shaped(text: str) -> bool:
    """Whether TEXT is spelled as code: snake_case, camelCase, res.redirect."""
    return bool(_CODE_SHAPE.search(text))


def has_word(text: str) -> bool:
    """Whether TEXT has a word at all (an empty question would match arbitrary facts)."""
    return bool(_HAS_WORD.search(text))


def is_words(text: str) -> bool:
    """Whether TEXT is words, not a name ("minimum python version" given where a key is)."""
    return bool(_WORDS.search(text))


def plural_of_name(name: str) -> bool:
    """"follows" of "which route follows a user?": a verb's -s on a name a route bears."""
    return bool(_ING_ROUTE.fullmatch(name))


def asked_when(question: str) -> str | None:
    """The date or datetime a question asks about ("On 2024-01-02, which ...", "as of
    2024-01-02T12:00:00Z", "in 2019": that year's last day), as ``--as-of`` takes it; None when
    it names none."""
    m = _ASKED_WHEN.search(question)
    if m is None:
        return None
    return m.group(1) or f"{m.group(2)}-12-31"


def task_subject(prompt: str) -> str:
    """The prompt without its task framing ("fix the bug where redirect drops the query" is
    about redirect and the query): what it is about, for ranking; the prompt itself when
    nothing else is left."""
    rest = _TASK.sub("", prompt, count=1)
    return rest if has_word(rest) else prompt


def qualifying_word(question: str, raw: str) -> str | None:
    """The content word that qualifies RAW in QUESTION: right before it ("static" in "static
    files"), else the noun right after it ("server" in "the email server"); None when neither
    is one (a stop word, a framing word, or a noun saying which part of it is asked about: "the
    email field")."""
    m = _template("word_before", name=raw).search(question)
    if m is None or m.group(1).lower() in _FRAME or not _lexical(m.group(1)):
        m = _template("word_after", name=raw).search(question)
        if m is None or m.group(1).lower() in _FRAME | _ABOUT:
            return None
    return m.group(1)


def says_major(question: str, name: str, major: str) -> bool:
    """Whether QUESTION says NAME then a major version ("drop Python 2")."""
    return _template("named_major", name=name, major=major).search(question) is not None


def _lexical(text: str) -> list[str]:
    return list(lexical_tokens(text))


def has_content(question: str) -> bool:
    """Whether QUESTION has a word that may name something in a repository (not only thanks,
    assent, "go on")."""
    return bool(set(_lexical(question)) - _chatter())


@functools.cache
def _chatter() -> frozenset[str]:
    return frozenset(_lexical(" ".join(sorted(CHATTER))))


_ASK_SPLIT = _pattern("ask_split")
_SAID_NUMBER = _pattern("said_number")
_SAID_QUANTITY = _pattern("said_quantity")
_UNITS = {unit: tuple(times) for unit, times in _T["units"].items()}
_BOTH_AND = _pattern("both_and")
_SAID_PATH = _pattern("said_path")
MAX_ASKS = 3  # asks of one prompt looked up apart (each is a ranking of the snapshot)


def asks(prompt: str) -> list[str]:
    """The asks of a prompt: its sentences, and the clauses or names it joins with a comma or
    "and" ("Upgrade Django to 6.1 and Wagtail to 7.5": two), each with a word that may name
    something; the first MAX_ASKS, the last holding the rest; [PROMPT] when it asks one thing."""
    parts = [p.strip() for p in _ASK_SPLIT.split(_each_of_both(prompt)) if p and p.strip()]
    parts = [p for p in parts if has_content(p)]
    if len(parts) <= 1:
        return [prompt]
    if len(parts) <= MAX_ASKS:
        return parts
    return parts[:MAX_ASKS - 1] + [" ".join(parts[MAX_ASKS - 1:])]


def _each_of_both(prompt: str) -> str:
    """The prompt with "both X and Y" said of each in a sentence of its own ("Upgrade Spring Boot
    in both the Maven and the Gradle build" asks it of the Maven build and of the Gradle build,
    not about "the Gradle build" alone)."""
    m = _BOTH_AND.search(prompt)
    if m is None:
        return prompt
    start = m.start()  # the sentence's start: after a . ? ! ; and a space, or a line's end
    while start > 0 and not (prompt[start - 1] == "\n" or prompt[start - 1].isspace()
                             and start > 1 and prompt[start - 2] in ".?!;"):
        start -= 1
    lead = prompt[start:m.start()].strip()
    return (f"{prompt[:start]} {lead} {m.group('a')}. {lead} {m.group('b')}"
            f"{prompt[m.end():]}").lstrip()


class Question:
    """A question or an agent's prompt, read once: every feature of its wording that ranking and
    answering use, each computed on first use and kept (a warm process asks the same question
    of ranking, the relevance floor and the answer's notes).  Build with :func:`parse`."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"Question({self.text!r})"

    @functools.cached_property
    def measured(self) -> Question:
        """The record of the question as ranking reads it ("how wide is the progress bar?":
        its width; a time asked: "timeout"), see :func:`measured`."""
        text = measured(self.text)
        return self if text == self.text else parse(text)

    # what it asks for
    @functools.cached_property
    def kinds(self) -> frozenset[str]:
        return frozenset(intent(self.text))

    @functools.cached_property
    def asks_function(self) -> bool:
        return asks_function(self.text)

    @functools.cached_property
    def asks_how(self) -> bool:
        return asks_how(self.text)

    @functools.cached_property
    def asks_number(self) -> bool:
        return asks_number(self.text)

    @functools.cached_property
    def asked_shape(self) -> str | None:
        return asked_shape(self.text)

    @functools.cached_property
    def asks_duration(self) -> bool:
        return asks_duration(self.text)

    @functools.cached_property
    def names_setting(self) -> bool:
        return names_setting(self.text)

    @functools.cached_property
    def asks_aux(self) -> bool:
        """About the tests, examples or docs themselves."""
        return bool(_ASKS_AUX.search(self.text))

    @functools.cached_property
    def handling(self) -> bool:
        """How the code handles something ("how does click handle keyboard interrupts?")."""
        return bool(_HANDLING.search(self.text))

    @functools.cached_property
    def still(self) -> bool:
        """Whether a fact still holds, or when it stopped ("is colorama still a dependency?")."""
        return bool(_STILL.search(self.text))

    def is_still_word(self, raw: str) -> bool:
        return bool(_STILL.fullmatch(raw))

    @functools.cached_property
    def says_exception(self) -> bool:
        return bool(_EXCEPTION_WORD.search(self.text))

    @functools.cached_property
    def says_image(self) -> bool:
        """An image, a version, a Dockerfile, a container, a base."""
        return bool(_IMAGE_WORDS.search(self.text))

    @functools.cached_property
    def asks_release(self) -> bool:
        """A release of the project itself ("Release 0.27.2", "bump the version for the next
        release"): its own version is what the task changes."""
        return bool(_RELEASE.search(self.text))

    @functools.cached_property
    def route_methods(self) -> frozenset[str]:
        return frozenset(route_methods(self.text))

    @functools.cached_property
    def groups(self) -> frozenset[str]:
        return frozenset(groups(self.text))

    @functools.cached_property
    def package_roles(self) -> frozenset[str]:
        return package_roles(self.text)

    # the words that may name a fact
    @functools.cached_property
    def tokens(self) -> frozenset[str]:
        """core.tokens of the question less its command-line options."""
        return frozenset(tokens(without_options(self.text)))

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """Its lexical tokens (BM25's)."""
        return frozenset(_lexical(self.text))

    @functools.cached_property
    def lower_words(self) -> frozenset[str]:
        return frozenset(_LOWER_WORD.findall(self.text.lower()))

    @functools.cached_property
    def numbers(self) -> frozenset[str]:
        """The numbers it states: two digits at least, or a dotted version ("100 concurrent
        requests", "to 6.1"), and a quantity with its unit as code writes it ("16 MB":
        16777216 and 16000000; "5 minutes": 300 and 300000)."""
        out = set(_SAID_NUMBER.findall(self.text))
        for amount, unit in _SAID_QUANTITY.findall(self.text):
            for times in _UNITS[unit.lower()]:
                value = float(amount) * times
                out.add(str(int(value)) if value.is_integer() else f"{value:g}")
        return frozenset(out)

    @functools.cached_property
    def paths(self) -> frozenset[str]:
        """The files it names by a path of one folder at least ("complete/build.gradle")."""
        return frozenset(p.rstrip(".") for p in _SAID_PATH.findall(self.text))

    @functools.cached_property
    def phrases(self) -> frozenset[str]:
        """Its runs of two to four words, lower case, as a value may be said ("bold cyan"), and
        the one words it offers as a choice ("strong or weak": strong, weak; not "true or
        false", which every flag's value is)."""
        words = [w.strip(".,;:!?()'\"`").lower() for w in self.text.split()]
        words = [w for w in words if w]
        choices = {w for i in range(1, len(words) - 1) if words[i] == "or"
                   for w in (words[i - 1], words[i + 1]) if w not in _NOT_CHOICES}
        return frozenset(" ".join(words[i:i + n]) for n in range(2, 5)
                         for i in range(len(words) - n + 1)) | choices

    @functools.cached_property
    def image_names(self) -> frozenset[str]:
        return frozenset(_IMAGE_NAME.findall(self.text.lower()))

    @functools.cached_property
    def capitalised(self) -> frozenset[str]:
        """Words spelled as a class's name, not the question's first word."""
        return frozenset(_CAPITALISED.findall(self.text.strip(), 1))

    @functools.cached_property
    def classes_asked(self) -> frozenset[str]:
        """The capitalised words not said as the owner of what is asked: "add a field to Limits"
        is about Limits, "the size in uvicorn's Config" about a member of Config."""
        return frozenset(w for w in self.capitalised
                         if not _template("owner", name=w).search(self.text))

    @functools.cached_property
    def literal_words(self) -> frozenset[str]:
        """What the question may quote of an earlier value (8000, >=3.7, /login)."""
        return frozenset(_LITERAL_WORDS.findall(self.text))

    @functools.cached_property
    def model_words(self) -> tuple[str, ...]:
        """The words before "model" in "where is the home page model?"."""
        m = _THE_MODEL.search(self.text)
        return tuple(m.group(1).split()) if m else ()

    @functools.cached_property
    def version_slots(self) -> frozenset[str]:
        return frozenset(version_slots(self.text))

    @functools.cached_property
    def joined(self) -> tuple[tuple[str, bool, str], ...]:
        return tuple(joined(self.text))

    @functools.cached_property
    def framing(self) -> frozenset[str]:
        return frozenset(framing(self.text))

    def identifiers(self, project: frozenset[str] | set[str] = frozenset()) -> list[tuple[str, bool, str]]:
        key = frozenset(project)
        got = self._idents.get(key)
        if got is None:
            got = self._idents[key] = identifiers(self.text, key)
        return list(got)

    @functools.cached_property
    def _idents(self) -> dict:
        return {}

    # what it asks of code
    @functools.cached_property
    def callee(self) -> str | None:
        return callee(self.text)

    @functools.cached_property
    def action(self) -> str | None:
        return action(self.text)

    @functools.cached_property
    def asks(self) -> tuple[str, ...]:
        """The asks of a prompt (see :func:`asks`)."""
        return tuple(asks(self.text))

    # what it asks of history
    @functools.cached_property
    def adopted(self) -> str | None:
        return adopted(self.text)

    @functools.cached_property
    def added(self) -> str | None:
        return adopted(self.text, added=True)

    @functools.cached_property
    def asked_when(self) -> str | None:
        return asked_when(self.text)

    @functools.cached_property
    def since_when(self) -> bool:
        """When the fact first held ("when was h2 added?", "since when ...")."""
        return bool(_SINCE_WHEN.search(self.text))

    @functools.cached_property
    def before(self) -> bool:
        """The value before the current one ("what was the previous version of X?")."""
        return bool(_BEFORE.search(self.text))

    @functools.cached_property
    def reached(self) -> str | None:
        """The version number a "when was X upgraded to 7?" asks when a floor reached."""
        m = _REACHED.search(self.text)
        return m.group(1) if m else None

    @functools.cached_property
    def who_why(self) -> bool:
        """Who set a value, or why ("who bumped body-parser?")."""
        return bool(_WHO_WHY.search(self.text))

    @functools.cached_property
    def first_set(self) -> bool:
        """...the commit that first set it ("who added X?")."""
        return bool(_FIRST_SET.search(self.text))


@functools.lru_cache(maxsize=64)
def parse(text: str) -> Question:
    """The question model of TEXT (the same record for the same text in a warm process)."""
    return Question(text)

"""What a question's wording says, before any fact is looked at: the kinds of fact it asks for
(intent), the words that may name a fact (identifiers), the dependency groups it names, whether
it asks for a function by what the function does, and the role of a package it asks about
(package_roles, from data/package_roles.toml).  Used by repomem.service.rank."""

from __future__ import annotations

import functools
import re
import tomllib
from importlib import resources

from repomem.core.tokens import norm_ident, tokens
from repomem.service.lexical import route_path

# Question words -> the kinds they ask for (after embed.tokens: "listens" is "port", "called" is
# "name", "settings" is "config", "requirements" is "dependency").
_INTENTS = {
    "version": {"dependency", "constant", "python"},
    "dependency": {"dependency"}, "require": {"dependency"}, "depend": {"dependency"},
    "install": {"dependency"}, "pin": {"dependency"},
    # "when was wagtail upgraded?": a package's version changed
    "upgrade": {"dependency"}, "upgrad": {"dependency"}, "downgrade": {"dependency"},
    "downgrad": {"dependency"}, "bump": {"dependency"},
    "python": {"python"},
    "port": {"config", "constant", "docker"},
    "route": {"route"},  # HTTP methods count only in capitals (GET /x), see intent()
    "func": {"function"}, "helper": {"function"}, "class": {"class"}, "exception": {"class"},
    "decorator": {"function"},
    "name": {"function", "class"}, "renamed": {"function", "class"},
    "rename": {"function", "class"}, "metadata": {"config"},
    "config": {"config", "constant", "docker"}, "option": {"config", "constant"},
    "environment": {"config", "docker"}, "variable": {"config", "constant", "docker"},
    "var": {"config", "constant", "docker"},  # "which env var ..."
    "default": {"config", "constant"}, "timeout": {"config", "constant"},
    "constant": {"constant"}, "image": {"docker", "config"}, "docker": {"docker"},
    "container": {"docker"},  # what a Dockerfile says of the container it makes
}
# Words that ask for a kind and may still name a fact ("CI" names ci.yml): not framing words
_NAMING_INTENTS = {"ci": {"config", "python"}, "workflow": {"config", "python"}}
# Intent words the tokenizer stems past recognition ("class" -> "clas", "renamed" -> "renam";
# "classes" -> "class"): the key _INTENTS knows them by.
_STEMMED = {"clas": "class", "renam": "renamed"}
# Words for a dependency group -> the group's usual name (requirements/docs.txt is "docs").
_GROUPS = {"dev": "dev", "development": "dev", "develop": "dev", "docs": "docs", "doc": "docs",
           "documentation": "docs", "test": "tests", "tests": "tests", "testing": "tests",
           "typing": "typing", "type": "typing", "typecheck": "typing", "lint": "lint",
           "linting": "lint", "optional": "optional", "peer": "peer", "build": "build"}
# Words that frame a question and never name the fact asked about.
_FRAME = set(_INTENTS) | {"use", "used", "uses", "need", "needs", "required", "requires",
                          "called", "named", "now", "current", "currently", "value", "set",
                          "defined", "declared", "does", "project", "function", "method",
                          "class", "module", "file", "today", "latest", "new", "old", "was",
                          "were", "renamed", "replaced", "minimum", "support", "supported",
                          "string", "package", "group", "environment", "checking", "pinned",
                          "installed", "install", "ask", "asks", "pins"} | set(_GROUPS)
# "does flask require", "flask's dependency on": the word in the slot names the project asking.
_CODE_SHAPE = re.compile(r"_|[a-z][A-Z]|[a-z]\.[a-z]")  # snake_case, camelCase, res.redirect
_PROJECT_SLOT = re.compile(
    r"\b(?:does|do|did|will|would|should)\s+(?:the\s+)?([\w.\-]+)\s+(?:require|use|need|depend|"
    r"pin|support|install|declare|list)|\b([\w.\-]+)'s\b", re.I)

# "what mypy version", "which version of py", "the jest pin": the word in that slot names a
# package, whatever else it is (mypy is also a config section, py short for python, build a
# dependency group, should a stop word), unless it names the interpreter or frames the question.
_VERSION_SLOT = re.compile(
    r"\b(?:what|which|the)\s+`?(@?[\w][\w.\-/]*)`?\s+(?:version|pin|release|requirement)s?\b"
    r"|\bversions?\s+of\s+(?:the\s+)?`?(@?[\w][\w.\-/]*)`?"
    r"|\b(?:put|place)s?\s+on\s+(?:the\s+)?`?(@?[\w][\w.\-/]*)`?"  # "the constraint X puts on methods"
    r"|\brequirement\s+(?:for|on)\s+(?:the\s+)?`?(@?[\w][\w.\-/]*)`?"
    # "when was wagtail upgraded to 7?", "bump django to 5", "move to wagtail 7": a version change
    r"|`?(@?[\w][\w.\-/]*)`?\s+(?:(?:was|were|got|is|been)\s+)?(?:upgrad|bump|downgrad|updat)\w*\s+to\b"
    r"|\b(?:upgrad|bump|downgrad|updat)\w*\s+(?:the\s+)?`?(@?[\w][\w.\-/]*)`?\s+to\b"
    r"|\bto\s+`?(@?[\w][\w.\-/]*)`?\s+v?\d", re.I)
_NOT_PACKAGES = {"python", "node", "node_js", "nodejs", "interpreter", "runtime", "go",
                 "rust", "java", "same", "exact", "major", "minor", "this", "that", "its",
                 "their", "which", "what", "a", "an", "the", "i", "we", "you", "they", "it",
                 "us"}


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


# a quoted name, an npm scoped package (@scope/name: a name, not a route), a route path (not
# the tail of a word), a word
_QWORD = re.compile(r"`([^`]+)`|(@[\w.\-]+/[\w.\-]+)|(?<![\w@])(/[\w/<>{}:.\-]*)|"
                    r"([A-Za-z_][\w]*(?:[.\-][\w]+)*)")
# A name as written in a question (quoted, dotted, hyphenated, snake or camel case): it names a
# fact and says nothing about the kind asked for ("http-errors" is no HTTP route).
_NAMED = re.compile(r"`[^`]*`|@[\w.\-]+/[\w.\-]+|\b[A-Za-z_]\w*(?:[.\-_]\w+)+\b|"
                    r"\b[a-z]+[A-Z]\w*\b")
# "which helper/function ...", "what is the function called", "the name of the function that
# ...": a function asked by what it does (not "what is the function `x` called", which names it).
# Its answer is never a name the question quotes (`encoding` in "returns True if `encoding` is a
# known codec" is a parameter), and no setting or dependency is an answer.
_ASKS_FUNCTION = re.compile(
    r"\b(?:which|what)\s+(?:[\w\-]+\s+){0,2}?"
    r"(?:function|helper|decorator|method(?!\s+and\s+(?:path|url)))\b(?!\s*`)"
    r"|\bwhat\s+is\s+the\s+(?:function|helper|decorator|method)\s+called\b"
    r"|\b(?:function|helper|decorator|method)\s+(?:that|which)\s+(?!is\b|was\b)", re.I)
# "which model stores recipes?": a data model's class, not one of its fields (a field is a
# setting of its model, repomem.miners._pysettings)
_ASKS_MODEL = re.compile(
    r"\b(?:which|what)\s+(?:[\w\-]+\s+)?models?\s+(?:stores?|holds?|keeps?|represents?|records?|"
    r"tracks?|describes?|defines?|contains?|has|have|owns?|is\s+used\s+for)\b", re.I)
# What follows a plain word that makes it a name: call parentheses, the kind of thing it is
# named ("the echo function", "the Context class") or where it is ("is echo defined"); a
# capitalised word, the kind of class it is ("the User model", "the Header component").
_NAME_CUE = re.compile(r"\(\)|\s+(?:function|method|class|decorator)\b", re.I)
# ...where it is, when nothing qualifies it: "is echo defined", but not "is the search page
# implemented" (a page of the site, not a name)
_WHERE_CUE = re.compile(r"\s+(?:defined|declared|implemented)\b", re.I)
_QUALIFIER = re.compile(r"([A-Za-z][\w\-]*)\s+$")
# ...or what it does: "what does echo do?", "what does get_text return?"
_DOES_CUE = re.compile(r"\bwhat\s+(?:does|do|did)\s+$", re.I)
_DOES_END = re.compile(r"\s+(?:do|does|return|returns|mean|raise|raises|yield|yields)\b", re.I)
_CLASS_CUE = re.compile(r"\s+(?:model|component|service|controller|view|type|interface|struct|"
                        r"enum|schema|serializer|form|exception|error)s?\b", re.I)
# "the site name", "the cookie name", "the database user name", "the redis url": a setting
# called a name or a URL, not the name of a function or class ("the function name", "the new
# name", "the name of the class that ...") nor a route's URL ("which url", "the page url").
_SETTING_NAME = re.compile(r"\b(?<!')([A-Za-z][\w\-]*)\s+(name|url|uri)\b", re.I)
_NOT_OWNERS = {"the", "a", "an", "its", "their", "whose", "what", "which", "that", "this", "my",
               "your", "our", "new", "old", "current", "full", "real", "original", "exact", "same",
               "previous", "former", "function", "method", "class", "helper", "decorator",
               "module", "file", "type", "kind", "of", "by", "under", "route", "page", "endpoint",
               "request"}
_ROUTE_WORDS = re.compile(r"\b(?:route|routes|endpoint|endpoints|path|paths|api|GET|POST|PUT|DELETE|PATCH)\b",
                          re.I)
_SETTING = {"config", "constant", "docker"}  # what a setting's name or URL asks for


def _owned(question: str) -> set[str]:
    """The words among name/url/uri that a noun before them owns ("the site name")."""
    return {m.group(2).lower() for m in _SETTING_NAME.finditer(question)
            if m.group(1).lower() not in _NOT_OWNERS}


# "how do I send a JSON response", "how to parse ...": the word after it is what the asker
# wants done, a verb, not a name (express depends on a package called send).
_HOW_VERB = re.compile(r"\bhow\s+(?:(?:do|can|could|should|would|might)\s+(?:i|we|you|one)\s+|to\s+)$",
                       re.I)
_OPTION = re.compile(r"(?<![\w\-])--?[A-Za-z][\w\-]*")  # --version, -v
_WHERE = re.compile(r"^\s*where\b", re.I)
# "how many", and a size asked by its adjective ("how wide is the progress bar?"): a number;
# not "how long is a token valid?", which the code that signs it may say (jwt.sign's expiresIn)
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much|wide|tall|high|deep|big|large)\b", re.I)
# "how is a relative url merged with the base url?", "how are environment variables mapped to
# options?": how the code does something to something, answered by code, however many
# setting words it says ("how is the database configured?" says no more than a setting does)
_IRREGULAR = {"sent": "send", "built": "build", "made": "make", "done": "do", "found": "find",
              "thrown": "throw", "caught": "catch", "held": "hold", "shown": "show", "drawn": "draw",
              "spun": "spin", "split": "split", "read": "read"}
_PARTICIPLE = r"([a-z]{3,}(?:ed|en)|" + "|".join(_IRREGULAR) + ")"
_HOW_DOES = re.compile(r"^\s*(?:how|where)\s+(?:is|are|was|were)\s+(?:[\w'\-]+\s+){1,4}?" + _PARTICIPLE
                       + r"\s+(to|with|into|from|by|on|for|in|when|between|across|before|after)\s+\w",
                       re.I)
# "how does click find the program name?", "how does the client follow redirects?": how the
# code does something, unless it says how something is set up ("how does the app use redis?")
# or the asker does it ("how do I run the tests?": a script or a tox environment)
_HOW_DO_IT = re.compile(r"^\s*how\s+(?:do|does|did)\s+(?!(?:i|we|you)\b)((?:[\w'.\-]+\s+){0,3}[\w'.\-]+)",
                        re.I)
_SETUP_VERBS = frozenset({"configure", "set", "define", "specify", "pin", "install", "declare",
                          "require", "name", "call", "build", "enable", "disable", "deploy", "host",
                          "serve", "expose", "bind", "use", "store", "save", "keep", "need",
                          "support", "have", "mean"})
# "the Dockerfile": the question is about the Dockerfile's own facts, not compose or heroku.yml
_DOCKERFILE = re.compile(r"\bDockerfile\b", re.I)
# A file's path or name (`httpx/__version__.py`, `setup.cfg`): where the fact is, not what it is
# about; its ".py" is no "python".
FILE_SUFFIXES = ("py|pyi|pyx|toml|cfg|ini|txt|json|ya?ml|lock|js|jsx|mjs|cjs|ts|tsx|go|rs|java|md|rst"
                 "|html")  # a regex alternation: the endings of the files questions and docs name
_FILE_NAME = re.compile(r"/|\.(?:" + FILE_SUFFIXES + r")`?$")
# Path parts no code calls a module-level function by
_NOT_MODULES = {"src", "lib", "__init__", "index", "."}


def module_names(path: str) -> list[str]:
    """The names code calls a module-level function of PATH by, before a dot: its module and
    packages (``click`` and ``termui`` for src/click/termui.py: ``click.prompt``)."""
    return [p for p in path.rsplit(".", 1)[0].split("/") if p and p not in _NOT_MODULES]


# "How wide is the progress bar?" asks for its width: ProgressBar.width.  "How long" is a length
# unless it asks for a time ("how long is a token valid?").
_MEASURED = re.compile(r"^(\s*how\s+(wide|tall|high|deep|big|large|long)\s+(?:is|are|was|were|can|could|"
                       r"should|may|must)\s+)((?:(?!\bbe\b).)+?)(\s+be)?(\s*\??\s*)$", re.I)
_DIMENSION = {"wide": "width", "tall": "height", "high": "height", "deep": "depth", "big": "size",
              "large": "size", "long": "length"}
_DURATION = re.compile(r"\b(?:valid|last|lasts|live|lives|kept|cached|take|takes|wait|waits|"
                       r"expires?|timeout|until|ago|run|runs)\b", re.I)


_HOW_LONG = re.compile(r"\bhow\s+long\b", re.I)
# "when does the jwt expire?", "when do sessions time out?": after how long, not at what date
# (history asks "when did ... change?")
_WHEN_ENDS = re.compile(r"^\s*when\s+(?:does|do|will|would|should|must)\s+.*\b(?:expires?|"
                        r"time\s*s?\s*out|times\s+out)\b", re.I)


def asks_duration(question: str) -> bool:
    """Whether the question asks for a time ("how long is an api token valid?", "how long does
    a session last?", "when does the jwt expire?"): a number, which code names a timeout, an
    expiry or a ttl."""
    return bool(_HOW_LONG.search(question) and _DURATION.search(question)
                or _WHEN_ENDS.search(question))


def asks_number(question: str) -> bool:
    """Whether the question asks for a number: how many, how much, how wide, how long a time."""
    return bool(_HOW_MANY.search(question)) or asks_duration(question)


def measured(question: str) -> str:
    """The question with the noun of the size it asks for by its adjective after what it is
    asked of ("how wide is the progress bar width?"), so that noun names the setting as "the
    progress bar width" would; a time asked for says "timeout", the word an expiry, a ttl and a
    timeout meet on ("how long is an api token valid timeout?": ``get_token(expires_in=3600)``);
    else the question."""
    if asks_duration(question):
        body = question.rstrip().rstrip("?").rstrip()
        return f"{body} timeout{question[len(body):]}"
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
    if re.search(r"\b(GET|POST|PUT|DELETE|PATCH)\b", question):
        kinds.add("route")
    if "python" in toks:  # "which Python does X require": the interpreter, not a package, nor
        # the package's own version ("Python versions declared in the package metadata")
        kinds = (kinds - {"dependency", "constant", "config"}) | {"python"}
    if asks_number(question):  # a number: a setting or a constant, never a route
        kinds = (kinds - {"route", "function", "class"}) | {"config", "constant"}
    if "route" in kinds:  # "which method and path reach X": an HTTP method, not a function
        kinds.discard("function")
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
    if _ASKS_FUNCTION.search(question):
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
        name = norm_ident(raw.split("(")[0])
        if name in packages:  # "what mypy version": a package's name, however plain
            out += [(name, True, raw)] + _js_alias(name)
            continue
        if not name or name in slot:
            continue
        if name in project and not (
                re.match(r"\s+(?:version|pin|dependency|requirement)\b", question[m.end():], re.I)
                or re.search(r"\bversion\s+of\s+$", question[:m.start()], re.I)):
            continue
        shaped = bool(quoted) or bool(re.search(r"[_\d.\-]|[a-z][A-Z]", raw))
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


# "which database does the project use?": the repository itself, no word of any fact's name
# (not projectType); "the project name", "the project's version" are its settings
_SELF = re.compile(r"\b(?:the|this|our|my|your)\s+(project|repo|repository|codebase)\b"
                   r"(?=\s*[?.!,]|\s*$|\s+(?:use|uses|need|needs|require|requires|depend|depends|"
                   r"run|runs|support|supports|target|targets|have|has|rely|relies|ship|ships|"
                   r"build|builds|deploy|deploys|talk|talks|store|stores|connect|connects)\b)", re.I)


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
    m = re.fullmatch(r"([a-z]\w*?)_?js", name)
    return [(m.group(1), True, m.group(1))] if m and name.endswith("_js") else []


_PLAIN_RUN = re.compile(r"[A-Za-z]+(?:\s+[A-Za-z]+)+")


def joined(question: str) -> list[tuple[str, bool, str]]:
    """Adjacent plain words as the one snake_case name they may spell ("the HTTP read timeout"
    -> read_timeout, http_read_timeout): a setting's key is rarely written as code in a
    question.  Such a name counts only where a current fact bears it (repomem.service.rank._exact)."""
    out: list[tuple[str, bool, str]] = []
    for m in _PLAIN_RUN.finditer(question.replace("`", " ")):
        words = m.group(0).split()
        for n in (2, 3):
            for i in range(len(words) - n + 1):
                raw = "_".join(words[i:i + n])
                out.append((norm_ident(raw), False, raw))
                if len(words[i + n - 1]) > 3 and re.search(r"[^su]s$", words[i + n - 1]):
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


# a phrasal verb, as code names it in one word (logout, signup, setup, lookup, teardown,
# timeout), with the word before it (what times out)
_PHRASAL = re.compile(r"\b(?:([A-Za-z]+)\s+)?(log|sign|check|set|look|clean|tear|shut|start|back|roll|time)"
                      r"(?:s|ged|ging|ed|ing|ting|d)?\s+(?:[A-Za-z']+\s+){0,2}?(in|out|on|up|down|back)\b",
                      re.I)


_PREDICATE = re.compile(r"\b([A-Za-z]{3,})\s+(?:is|are)\s+([A-Za-z]{3,}ed)\b")


# What a route does, by the HTTP methods that do it: "which route returns the user's feed?" is a
# GET, "which route creates an article?" a POST
_METHOD_VERBS = (
    ({"GET"}, re.compile(r"\b(?:returns?|returning|lists?|listing|gets?|getting|fetch(?:es|ing)?|"
                          r"shows?|showing|retriev(?:es?|ing)|displays?|displaying)\b", re.I)),
    ({"POST"}, re.compile(r"\b(?:creat(?:es?|ing)|adds?|adding|registers?|registering|submits?|"
                           r"submitting|uploads?|uploading)\b", re.I)),
    ({"PUT", "PATCH"}, re.compile(r"\b(?:updat(?:es?|ing)|edits?|editing|modif(?:y|ies|ying))\b", re.I)),
    ({"DELETE"}, re.compile(r"\b(?:delet(?:es?|ing)|remov(?:es?|ing)|destroy(?:s|ing)?)\b", re.I)),
)


# ...said of the route ("which route returns ..."): not "what does the login route return?"
# (what its response holds)
_ROUTE_DOES = re.compile(r"\b(?:routes?|endpoints?|handlers?|apis?)\s+(?:that\s+|which\s+)?(\w+)", re.I)


def route_methods(question: str) -> set[str]:
    """The HTTP methods the verb said of a route says it answers with ("which route returns
    ...?": GET); none when no verb is said of it, or verbs of two."""
    if re.search(r"\b(?:does|do|did)\b", question, re.I):  # "what does the route return?"
        return set()
    verbs = " ".join(m.group(1) for m in _ROUTE_DOES.finditer(question))
    said = [methods for methods, rx in _METHOD_VERBS if rx.search(verbs)]
    return said[0] if len(said) == 1 else set()


def groups(question: str) -> set[str]:
    """Dependency groups the question names ("the docs build", "type checking", `tests-random`)."""
    words = {w.lower() for w in re.findall(r"[\w\-]+", _without_slots(question))}
    return {_GROUPS[w] for w in words if w in _GROUPS} | \
        {norm_ident(q) for q in re.findall(r"`([^`]+)`", question)}


def names_setting(question: str) -> bool:
    """"What is the site name?": *name* is part of what is asked about (WAGTAIL_SITE_NAME,
    SESSION_COOKIE_NAME, project.name), not a request for a function's or class's name."""
    return "name" in _owned(question)


# "which functions call `make_context`?", "who calls bcrypt.hash?", "where is make_context()
# called?", "the callers of X": the functions whose bodies call the name (attrs calls), not the
# function of that name.
_NAME = r"`?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`?"
# ...where the name ends the question or a clause ("what calls the payment service" names none)
_END = r"(?=\s*(?:[?.!,;:]|$|\s(?:function|method|in|from|directly|now)\b))"
_CALLERS = re.compile(
    r"\b(?:which|what)\s+(?:other\s+)?(?:functions?|methods?|code|places?|handlers?|callers?)\s+"
    r"(?:call|calls|invoke|invokes|use|uses)\s+(?:the\s+)?(?:function\s+|method\s+)?" + _NAME + _END +
    r"|\b(?:who|what)\s+(?:calls|invokes)\s+(?:the\s+)?(?:function\s+|method\s+)?" + _NAME + _END +
    r"|\bwhere\s+(?:is|are)\s+(?:the\s+)?(?:function\s+|method\s+)?" + _NAME +
    r"\s+(?:being\s+)?(?:called|invoked|used)\b"
    r"|\bcallers?\s+of\s+(?:the\s+)?(?:function\s+|method\s+)?" + _NAME + _END, re.I)


# "how are passwords hashed?", "how is the session cookie signed?": the action asked about,
# done by the functions whose bodies call it (bcrypt.hash, sign)
# ...an irregular participle too ("how are emails sent?"), and an adverb after it ("how are
# emails sent asynchronously?", "how is the config loaded lazily?"); "where is the default SSL
# context created?" asks for the code that does it as well
_DONE = re.compile(r"^\s*(how|where)\s+(?:is|are|was|were)\s+(?:[\w'\-]+\s+){1,4}?" + _PARTICIPLE
                   + r"(?:\s+[a-z]+ly)?\s*\??\s*$", re.I)


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
    return re.sub(r"^(?:self|this|cls)\.", "", name) if name else None


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


# "how is the database configured?", "how is debug enabled?": a setting answers
_SETTING_VERB = re.compile(r"(?:configur|set|defin|specifi|pinn|install|declar|requir|nam|call|buil|"
                           r"enabl|disabl|deploy|host|serv|expos|bound|given|writt|us|stor|sav|kept)", re.I)
_BY_WHAT = {"from", "by", "with", "into"}


def asks_function(question: str) -> bool:
    """A function asked by what it does ("which helper returns ...")."""
    return bool(_ASKS_FUNCTION.search(question))


# "which orm does the project use?", "what is used to hash passwords?", "which library sends
# emails?": a role a package fills, asked without its name.  The role's phrase comes right after
# "which"/"what" (a word or two before it: "which python orm"), or after "which library/tool..."
# or "what is used to/for" anywhere later.
_ROLE_WORD = re.compile(r"[a-z0-9]+")
_ROLE_LEAD = re.compile(r"^\s*(?:which|what)\s+(?:(?:kind|sort|type)\s+of\s+)?", re.I)
_ROLE_ASKED = re.compile(r"^\s*(?:which|what)\s+(?:(?:kind|sort|type)\s+of\s+)?(?:librar(?:y|ies)|"
                         r"packages?|modules?|tools?|dependenc(?:y|ies)|frameworks?|services?)\b"
                         r"|\bwhat\s+(?:is|are|was|were|gets|get)\s+used\s+(?:to|for)\b"
                         r"|\bwhat\s+(?:does|do|did)\s+.+\buse\s+(?:to|for)\b", re.I)
# Words that end the lead-in before a role's phrase: "what is the orm ..." names no role, "which
# function sends email?" asks for a function, "which middleware serves static files?" for one.
_KIND_WORDS = frozenset("function method class route endpoint handler helper middleware model "
                        "setting config configuration option variable constant file test command "
                        "decorator exception error field hook view script job step".split())
_ROLE_STOPS = frozenset("is are was were does do did the a an of to for in on by and or with its "
                        "this that".split()) | _KIND_WORDS
# A setting asked ("what view engine is used by default?", "which linter config is used?"): its
# value answers, not the package
_ROLE_SETTING = re.compile(r"\bdefault\b|\bconfigur", re.I)
ROLE_MODIFIERS = 2  # words allowed between "which" and the role ("which python orm")


def _role_words(text: str) -> list[str]:
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in _ROLE_WORD.findall(text.lower())]


@functools.cache
def _roles() -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """(a phrase as words, the packages of its role) for every phrase of data/package_roles.toml."""
    text = resources.files("repomem").joinpath("data", "package_roles.toml").read_text("utf-8")
    return tuple((tuple(_role_words(phrase)), frozenset(norm_ident(p) for p in role["packages"]))
                 for role in tomllib.loads(text).values() for phrase in role["asked"])


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
    for phrase, packages in _roles():
        n = len(phrase)
        for at in range(len(words) - n + 1):
            if tuple(words[at:at + n]) != phrase or words[at + n:at + n + 1] and \
                    words[at + n] in _KIND_WORDS:  # "which linter config": the config
                continue
            if anywhere or at <= ROLE_MODIFIERS and not _ROLE_STOPS & set(words[:at]):
                found |= packages
                break
    return frozenset(found)


# "when did click switch to flit?", "when did we start using ruff?", "when was whitenoise
# adopted?": the tool, package or service the project took up.  Not a version ("when did we
# move to django 5.2?" asks when a pin reached it), nor a file ("move to pyproject.toml").
_TAKEN = r"(?:the\s+|a\s+|an\s+)?`?(@?[A-Za-z](?:[\w.\-/]*\w)?)`?(?![\w\-/]|\.\w)(?!\s+v?\d)"
_ADOPTED = re.compile(
    r"\b(?:switch|mov|migrat|chang|convert|port|go|went|transition)\w*\s+(?:[\w'\-]+\s+){0,3}?"
    r"to\s+(?:using\s+)?" + _TAKEN +
    r"|\b(?:start|began|begin|begun)\w*\s+(?:using|to\s+use)\s+" + _TAKEN +
    r"|\badopt\w*\s+" + _TAKEN +
    r"|\breplac\w*\s+(?:[\w'\-]+\s+){0,3}?with\s+" + _TAKEN +  # "replace setuptools with flit"
    r"|\b(?:was|were)\s+" + _TAKEN + r"\s+(?:adopted|introduced|(?:first\s+)?used)\b", re.I)
_WHEN = re.compile(r"\bwhen\b", re.I)
_NOT_TAKEN = {"the", "a", "an", "it", "its", "this", "that", "them", "use", "using", "version",
              "new", "newer", "latest", "another", "other", "something", "which", "what",
              # a file, however spelled: "move to pyproject", "switch to requirements files"
              "pyproject", "setup", "requirements", "package", "dockerfile", "makefile"}


_WORD = re.compile(r"[a-z0-9]+")
# Tools named in two words, as their files say them: GitHub Actions' workflows are in
# .github/workflows, GitLab CI's in .gitlab-ci.yml
_TWO_WORDS = {"github actions": "github workflows", "github action": "github workflows",
              "gitlab ci": "gitlab ci", "travis ci": "travis", "circle ci": "circleci",
              "docker compose": "docker compose"}

# "when did we add whitenoise?" (not "add h2 support", "add the timeout setting"): a package's
# name, when a package bears it ("when did we add a login?" asks for code)
_ADDED = re.compile(r"\badd(?:ed|s)?\s+" + _TAKEN + r"(?=\s*(?:[?.!]|$)|\s+(?:to|in|as)\b)", re.I)


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

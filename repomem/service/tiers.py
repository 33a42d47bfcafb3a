"""The named tiers of ranking: what the question asks for, and which facts it names.

_asked gives the kinds of fact the question asks for and, per row, how many of its identifiers
name the row (_exact: each naming signal of _NAMING gives lists of rows, each list adding 1 to
its rows); rank orders the named facts of a kind asked for before every other (the tier), and
those named by more identifiers first.  A name that only a retired version bore resolves to the
key's current version and adds a lineage note.  unnamed and taken_up answer the same questions
for the answer's notes (repomem.service.query), so that ranking and the answer agree.
"""

from __future__ import annotations

import re

from repomem.core.paths import tool_of
from repomem.core.tokens import norm_ident, uncamel
from repomem.service import naming
from repomem.service.columns import _CODE_NAMES, _DIGIT, qualnames
from repomem.service.lexical import lexical_tokens, own_names
from repomem.service.question import Question, code_shaped, parse, plural_of_name, qualifying_word
from repomem.service.rowindex import _Facts, _facts, _name_words

RARE = 5  # a plain word is an identifier when at most this many facts bear it as a name
# The project's own version: a package manifest's version field, or a module's __version__.
_PROJECT_VERSION = re.compile(
    r"^config:(?:.*/)?(?:pyproject\.toml:(?:project|tool\.poetry)\.version|setup\.cfg:metadata\."
    r"version|setup\.py:version|package\.json:version|Cargo\.toml:package\.version)$"
    r"|^constant:.*:__version__$")
_LIST_ITEM = re.compile(r"\.\d+(?:\.|$)")  # include.3.name, steps.0.uses: a key by position
_REFERENCE = re.compile(r"\$\{\{[^}]*\}\}")  # a GitHub Actions expression standing for a value


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
        project = {w for p in facts.project_of(q.text) for w in lexical_tokens(p)}
        catchers = facts.catching(set(words) - project)
        if 0 < len(catchers) <= RARE:
            exact[catchers] = np.maximum(exact[catchers], 1)
    if q.asks_number:  # "how long is a password reset token valid?", "how many seconds is a
        # reset link good for?": a setting the question names answers it when its value is a
        # number (not ResetPasswordForm.password)
        for i in np.flatnonzero((exact > 0) & facts.of_kind(("config", "constant"))):
            if not _DIGIT.search(rows[i]["value"]):
                exact[i] = 0
    elif q.asked_shape:  # "what symbol does the rich help print ...?": not RICH_HELP's sentence,
        # which the question names; a setting named answers when its value has the shape asked
        exact[(exact > 0) & facts.of_kind(("config", "constant")) & ~facts.shaped(q.asked_shape)] = 0
    return kinds, exact, lineage


def _names_model(q: Question, facts: _Facts) -> bool:
    words = q.model_words
    # "home page": the class HomePage (a class is known by its name whole, homepage), then page
    return any(facts.rows[i]["kind"] == "class" for k in range(len(words))
               for name in {norm_ident("_".join(words[k:])), norm_ident("".join(words[k:]))}
               for i in facts.names.get(name, ()))


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
    for name, shaped, raw in _project_version(q, facts, kinds) or q.identifiers(facts.project_of(q.text)):
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
            for n, shaped, _ in q.identifiers(facts.project_of(q.text)) if not _own_project(facts, n, q)) \
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
    if kinds and kinds <= {"function", "class"}:  # "which Config method sets up logging?": the
        # class's code, not its settings, which bear its name only as their owner's
        hits = _own_settings(facts, name, hits)
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
        if not hits:  # "the article comment list": ArticleCommentList, a class or function;
            # not a test's ("sets up log handlers" is no test case's setup)
            hits = [i for i in facts.names.get(name.replace("_", ""), ()) if rows[i]["kind"] in
                    (("class",) if "class" in kinds else _CODE_NAMES)
                    and (q.asks_aux or not facts.test_code[i])]
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


def _spelled(row: dict, raw: str) -> bool:
    """Whether a function or class bears RAW as spelled (function names are case-sensitive:
    `Request` is a class, not the function request): its name, less a leading underscore, which
    marks privacy, not another name (`get_text_stream` is _get_text_stream), or a name code
    calls it by (`Context.invoke`, click.get_terminal_size)."""
    return row["value"].lstrip("_") == raw.lstrip("_") or raw in qualnames(row)


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
    out = {name: raw for name, shaped, raw in q.identifiers(facts.project_of(q.text))
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

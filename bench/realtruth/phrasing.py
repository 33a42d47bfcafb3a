"""How questions are worded: templates per family with varied phrasing, the docstring paraphrase
for function-by-purpose questions, the split by repository, and the marker-free rule."""

from __future__ import annotations

import hashlib
import re

# Words that tell which state of a fact is the later one (the synthetic suite's list, plus a few).
FORBIDDEN = ["old", "older", "oldest", "new", "newer", "newest", "current", "currently",
             "previous", "previously", "deprecated", "deprecate", "legacy", "outdated", "former",
             "formerly", "obsolete", "latest", "update", "updated", "updates", "rename",
             "renamed", "replace", "replaced", "replacement", "no longer", "stale", "supersede",
             "superseded", "revert", "reverted", "now", "anymore", "recent", "recently", "prior",
             "earlier", "later", "used to", "originally", "original", "change",
             "changed", "upgrade", "upgraded", "downgrade", "downgraded", "bump", "bumped",
             "moved", "migrate", "migrated", "retired", "archived", "instead", "today", "still",
             "was", "were", "v1", "v2", "v3", "tmp",
             "next", "last", "first", "final", "temporary", "todo", "wip", "these days"]
_CODE = re.compile(r"`[^`]*`")


def markers(text: str) -> set[str]:
    """Forbidden words in TEXT outside `code spans` (an identifier such as
    `get_current_context` is a name, not a temporal cue)."""
    prose = _CODE.sub(" ", text)
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9]+", prose)}
    low = " " + " ".join(re.findall(r"[a-z0-9]+", prose.lower())) + " "
    return ({w for w in FORBIDDEN if " " not in w and w in words}
            | {p for p in FORBIDDEN if " " in p and f" {p} " in low})


# The split is by repository, fixed by ../shared/realrepos/README.md (the same list is in
# bench/real.py; tests/bench/test_real.py checks that they agree).
TRAINING = ("click", "httpx", "microblog", "bakerydemo", "express", "node-express-realworld",
            "uvicorn", "typer", "golang-gin-realworld-example-app", "mini-redis", "gs-rest-service")
HELD_OUT = ("httpie", "pydantic-settings", "django-locallibrary-tutorial", "koa", "echo",
            "spring-boot-realworld-example-app")


def split_of(repo: str) -> str:
    """"train" or "held-out": the repository's group, never the question's (a repository in
    neither list is held out: nobody tuned on it)."""
    return "train" if repo in TRAINING else "held-out"


def pick(options: list[str], *salt) -> str:
    h = int(hashlib.sha1(repr(salt).encode()).hexdigest(), 16)
    return options[h % len(options)]


DEP_MAIN = ["Which version of {dep} does {proj} require?",
            "What version constraint does {proj} put on {dep}?",
            "What {dep} versions does {proj} accept as a dependency?",
            "Which {dep} release does {proj} need at runtime?",
            "What is {proj}'s requirement for {dep}?"]
DEP_OTHER_GROUP = ["Which version of {dep} does {proj}'s `{group}` dependency group ask for?",
                   "In the `{group}` dependency group of {proj}, what is the {dep} requirement?"]
DEP_EXAMPLE = ["Which version of {dep} does the `{example}` example of {proj} require?",
               "What {dep} requirement does {proj}'s `{example}` example declare?"]
DEP_EXTRA = ["With the {group} extra, which version of {dep} does {proj} pull in?",
             "What {dep} version does {proj}'s `{group}` extra ask for?"]
DEP_GROUP = {
    "docs": ["Which {dep} version do {proj}'s docs build with?",
             "What version of {dep} is pinned for building the {proj} documentation?"],
    "dev": ["Which {dep} version is pinned for {proj} development?",
            "What {dep} version does the dev environment of {proj} install?"],
    "tests": ["Which version of {dep} do {proj}'s tests run with?",
              "What {dep} pin does the {proj} test environment use?"],
    "typing": ["Which {dep} version does {proj}'s type checking use?"],
    "production": ["Which {dep} version does {proj} install in production?"],
    "development": ["Which {dep} version does {proj} install for local development?"],
    "indirect": ["Which version of the indirect Go module {dep} does {proj}'s go.mod pin?"],
    "engines": ["Which {dep} version does {proj} declare it needs?"],
    "parent": ["Which version of {dep} is {proj}'s Maven parent?",
               "What {dep} version does {proj} inherit its Maven build from?"],
    "plugin": ["Which version of the {dep} plugin does {proj}'s build apply?",
               "What {dep} plugin version does {proj} build with?"],
    "build": ["Which {dep} version does {proj} build with?"],
    "test": ["Which version of {dep} do {proj}'s tests run with?"],
    "testImplementation": ["Which version of {dep} do {proj}'s tests use?",
                           "What {dep} version is on {proj}'s test classpath?"],
    "runtimeOnly": ["Which {dep} version does {proj} put on its runtime classpath?"],
}
ASOF = {"dep": "On {day}, which version of {dep} did {proj} require",
        }

PYREQ = ["Which Python versions does {proj} require?", "What is the minimum Python for {proj}?",
         "What requires-python does {proj} declare?"]
CLASSIFIERS = ["Which Python versions does {proj} list in its classifiers?",
               "What Python versions does {proj} say it supports in its package classifiers?"]
VERSION = ["What version number does {proj} declare in its package metadata?",
           "Which version string is {proj}'s package at?"]
DUNDER = ["What is {proj}'s `__version__`?", "Which value does `{name}` hold in {where}?"]
CONST = ["What is `{name}` set to in {where}?", "Which value does {where} give `{name}`?",
         "What's the value of `{name}` in {where}?"]
SETTING = ["What is `{name}` in {proj}'s `{cls}` settings class?",
           "Which value does the `{cls}` config give `{name}` in {proj}?",
           "How is `{name}` configured in {proj}'s `{cls}`?"]
SETTING_DEFAULT = ["What is the default `{name}` in {proj}'s `{cls}` when the environment does not set it?",
                   "Without an environment variable, which `{name}` does {proj}'s `{cls}` fall back to?"]
DJANGO = ["What is `{name}` set to in {proj}'s {env} settings?",
          "In the {env} Django settings of {proj}, which value does `{name}` have?"]
DOCKER = {"from": ["Which base image does {proj}'s {where} build from?",
                   "What image does the {where} of {proj} start FROM?"],
          "from-stage": ["Which image does the `{stage}` build stage of {proj}'s {where} use?"],
          "expose": ["Which port does {proj}'s container expose?",
                     "What port does the {where} of {proj} EXPOSE?"],
          "env": ["What does {proj}'s {where} set the `{name}` environment variable to?"],
          "arg": ["What is the default of the `{name}` build argument in {proj}'s {where}?"],
          "image": ["Which image does the `{name}` service use in {proj}'s compose file?",
                    "What image runs the `{name}` service of {proj} under docker compose?"],
          "ports": ["Which ports does the `{name}` service publish in {proj}'s compose file?"]}
ROUTE = ["Which URL does {proj}'s `{handler}` view answer?",
         "What is the full route, with its prefix, of the `{handler}` handler in {proj}?",
         "Which method and path reach `{handler}` in {proj}?"]
ROUTE_PURPOSE = ["Which endpoint of {proj} is for: {doc}?",
                 "What method and path does {proj} use to {doc}?"]
FUNC = ["Which function in {proj} {doc}?", "What is the name of the {proj} function that {doc}?",
        "I need the {proj} code that {doc}: what is the function called?",
        "Which {proj} helper {doc}?"]
RENAMED = ["What is the function `{name}` of {proj} called in the code?",
           "Where did `{name}` go in {proj}: which function is it?",
           "`{name}` is missing from {proj}; what is that function's name?",
           "What name does {proj}'s `{name}` have in the codebase?"]
RENAMED_CLASS = ["What is the class `{name}` of {proj} called in the code?",
                 "`{name}` is missing from {proj}; which class is it?"]
PROPERTY = ["What is `{name}` set to in {proj}'s `{where}`?",
            "Which value does {proj} give the `{name}` property in `{where}`?",
            "How is `{name}` configured in {proj}'s `{where}`?"]
JAVA = {"sourceCompatibility": ["Which Java source compatibility does {proj} set?"],
        "targetCompatibility": ["Which Java target compatibility does {proj} set?"],
        "toolchain": ["Which Java toolchain version does {proj} ask for?",
                      "What Java language version does {proj} build with?"]}
INIT_DEFAULT = ["What is the default `{name}` of {proj}'s `{cls}`?",
                "If you don't pass `{name}` to {proj}'s `{cls}`, which value does it take?",
                "Which `{name}` does {proj}'s `{cls}` default to?"]
OPTION = ["What does the `{name}` option of {proj}'s `{func}` command default to?",
          "Which default does {proj} give the `{name}` option of `{func}`?"]
NODE = ["Which Node.js versions does {proj} support (engines)?"]

VERBS = set("""return get set create make add remove find check convert build parse format write
read raise handle load open close send encode decode merge apply produce resolve describe generate
run invoke call execute compute show print prompt echo wrap split join normalize normalise coerce
validate register attach mark decrease increase iterate yield unwind use look determine extract
fetch wait start stop test ensure initialize initialise delete clear copy pass process render
install emit store save collect construct mask quote unquote strip translate compile export import
follow count list select sort match gather lookup turn take give allow enable disable define
provide prepare sign verify serialize serialise deserialize read clean instantiate wrap bind
tell indicate display hide push pop enter exit flush reset stream iter retrieve send add
compare guess detect infer install attempt try emulate simulate notify append insert
""".split())
_VERB_ES = ("s", "sh", "ch", "x", "z", "o")
_ROLE = re.compile(r":(?:func|class|meth|attr|data|exc|mod|obj|ref):`~?([^`]+)`")


def third_person(doc: str) -> str | None:
    """'Return the context.' -> 'returns the context'; None when the line is not usable."""
    doc = _ROLE.sub(r"`\1`", doc).strip().rstrip(".").strip()
    doc = doc.replace("``", "`")
    words = doc.split()
    if len(words) < 3 or len(words) > 18 or not words[0][:1].isalpha():
        return None
    verb = words[0]
    low = verb.lower()
    base = low[:-2] if low.endswith(("ses", "shes", "ches", "xes")) \
        else low[:-1] if low.endswith("s") and not low.endswith("ss") else low
    if base not in VERBS and low not in VERBS:
        return None  # 'Helpful context manager ...', 'Value the function receives ...'
    if low.endswith("s") and not low.endswith("ss"):
        head = low  # already 'Returns', 'Creates'
    elif low.endswith("y") and low[-2:-1] not in "aeiou":
        head = low[:-1] + "ies"
    elif low.endswith(_VERB_ES):
        head = low + "es"
    else:
        head = low + "s"
    if low in ("this", "the", "a", "an", "if", "when", "used", "internal", "helper", "like",
               "same", "shortcut", "alias", "decorator", "deprecated", "called"):
        return None
    return " ".join([head] + words[1:])


def asof_wording(q: str, day: str) -> str:
    """The same question asked about a past day: 'On 2019-05-02, which ...?'."""
    if q.startswith("`"):
        return f"On {day}: {q}"
    return f"On {day}, {q if q.startswith('I ') else q[0].lower() + q[1:]}"

"""Config miner: one fact per setting in TOML, YAML, JSON, INI/cfg, .env and npmrc files, Procfiles,
Prisma schemas and runtime version files (.nvmrc, .python-version, .tool-versions).

The file path is part of every key (``config:config/production.toml:server.port``), so the same
setting in two environments' files is two facts that never supersede each other.  Parts that the
dependency miner owns (dependency lists, required Python, classifiers) are skipped here so one
change never shows up as two facts.  Two list settings are really sets of Python versions (the
GitHub Actions matrix, the tox envlist) and become order-insensitive ``python:`` facts instead.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from repomem.core.model import PYTHON, Fact, file_setting, set_value
from repomem.core.paths import tool_of
from repomem.miners import _config_parse as P
from repomem.miners._base import MAX_FACTS_PER_FILE, MAX_TEXT, excerpt, too_many
from repomem.miners._text import comment_for, path_words, source_line, words

_LOCKS = {"poetry.lock", "package-lock.json", "yarn.lock", "pipfile.lock", "pnpm-lock.yaml",
          "composer.lock", "cargo.lock", "npm-shrinkwrap.json"}

# Key paths the dependency miner owns, per file name; "*" matches one path part.
_DEPS_OWNED = {  # by lower-case file name
    "pyproject.toml": ["project.dependencies", "project.optional-dependencies",
                       "project.requires-python", "project.classifiers", "tool.poetry.*dependencies",
                       "tool.poetry.group", "dependency-groups", "tool.uv.dev-dependencies",
                       "tool.pdm.dev-dependencies", "tool.flit.metadata.requires",
                       "tool.flit.metadata.requires-extra", "tool.flit.metadata.requires-python",
                       "tool.flit.metadata.classifiers"],
    "package.json": ["dependencies", "devDependencies", "peerDependencies",
                     "optionalDependencies", "engines"],  # engines: deps (node), manifests
    # repomem/miners/manifests.py states these (dependency and engines facts)
    "cargo.toml": ["dependencies", "dev-dependencies", "build-dependencies", "target",
                   "workspace.dependencies", "package.rust-version"],
    "setup.cfg": ["options.install_requires", "options.extras_require", "options.python_requires",
                  "metadata.classifiers"],
}

_PY_KEYS = {"python-version", "python-versions", "python_version", "python"}
# Other runtimes a workflow's matrix tests (a config fact, with the words Python's has)
_CI_RUNTIMES = {"node-version": "Node.js", "node": "Node.js", "node_version": "Node.js",
                "nodejs": "Node.js", "go-version": "Go", "go": "Go", "java-version": "Java",
                "java": "Java", "jdk": "Java", "rust": "Rust", "toolchain": "Rust",
                "ruby-version": "Ruby", "ruby": "Ruby"}

# Data, not settings: folders of test data and framework fixtures (Django's loaddata fixtures,
# Jest's __fixtures__, Go's testdata) and a JSON document whose top level is an array (a list of
# records: a Django fixture, a test-case table such as httpx's whatwg.json).  A settings file is
# a mapping; mining records as settings gave bakerydemo's 573 kB fixture 58,799 versions, which
# drowned its real settings in ranking and made a cold ask three times slower.
_DATA_DIRS = {"fixtures", "__fixtures__", "testdata", "test_data", "test-data"}


# Config files known by their whole name: dotenv files of other names (Flask's .flaskenv), INI
# files without an extension, a tool's JSON or YAML "rc" file (JSON is YAML), Procfiles.
_NAMED = {".flaskenv": "env", ".editorconfig": "editorconfig", ".npmrc": "npmrc",
          "procfile": "procfile",
          **dict.fromkeys((".prettierrc", ".babelrc", ".eslintrc", ".stylelintrc", ".mocharc",
                           ".swcrc", ".lintstagedrc", ".jshintrc", ".nycrc", ".postcssrc",
                           ".releaserc"), "yaml")}


# Files that pin a runtime's version for a version manager (nvm, pyenv, rbenv, asdf...): the
# runtime each names.
_VERSION_FILES = {".nvmrc": "node", ".node-version": "node", ".python-version": "python",
                  ".ruby-version": "ruby", ".go-version": "go", ".java-version": "java",
                  ".terraform-version": "terraform", ".tool-versions": None}


def _format(path: str) -> str | None:
    base = path.rsplit("/", 1)[-1].lower()
    if base == ".env" or base.startswith(".env.") or base.endswith(".env"):
        return "env"
    if base in _NAMED:
        return _NAMED[base]
    if base in _VERSION_FILES:
        return "versions"
    ext = base.rsplit(".", 1)[-1] if "." in base else ""
    if ext == "jsonc" or ext == "json" and (_JSONC_NAME.match(base) or "/.vscode/" in f"/{path}"):
        return "jsonc"
    return {"toml": "toml", "yaml": "yaml", "yml": "yaml", "json": "json",
            "ini": "ini", "cfg": "ini", "prisma": "prisma"}.get(ext)


# JSON files whose tools allow comments and trailing commas (JSONC)
_JSONC_NAME = re.compile(r"^(?:tsconfig|jsconfig)(?:\.[\w.-]+)?\.json$|^\.?devcontainer\.json$"
                         r"|^\.eslintrc\.json$|^tslint\.json$|^api-extractor\.json$")


_COMMENTS = {"toml": "#", "yaml": "#", "json": "", "jsonc": "/", "ini": "#;", "env": "#", "npmrc": "#;",
             "editorconfig": "#;", "procfile": "#", "prisma": "/", "versions": "#"}
_PARSERS = {"toml": P.parse_toml, "yaml": P.parse_yaml, "json": P.parse_json, "jsonc": P.parse_jsonc,
            "ini": P.parse_ini, "env": P.parse_env, "procfile": P.parse_procfile,
            "prisma": P.parse_prisma,
            # npm's ini: keys hold colons (``//registry.npmjs.org/:_authToken``), only = divides
            "npmrc": lambda text: P.parse_ini(text, delimiters=("=",), preamble=True),
            "editorconfig": lambda text: P.parse_ini(text, delimiters=("=",), preamble=True)}


def _owned(base: str, parts: tuple) -> bool:
    # match on the dotted text: an INI section name such as "options.extras_require" has dots too
    dotted = ".".join(str(p) for p in parts)
    return any(fnmatchcase(dotted, pat) or fnmatchcase(dotted, pat + ".*")
               for pat in _DEPS_OWNED.get(base, ()))


def _expand_braces(item: str) -> list[str]:
    """tox's ``py{310,311}-django{4,5}`` -> the product of the alternatives."""
    m = re.search(r"\{([^{}]*)\}", item)
    if not m:
        return [item]
    return [x for alt in m.group(1).split(",")
            for x in _expand_braces(item[: m.start()] + alt.strip() + item[m.end():])]


def _envlist(value) -> list[str]:
    raw = ",".join(value) if isinstance(value, list) else value
    items = [s.strip() for s in re.split(r",(?![^{]*\})", raw) if s.strip()]
    return [x for s in items for x in _expand_braces(s)]


# Spring Boot's settings files: a document of a multi-document file that names its profile
# (spring.config.activate.on-profile, or Boot 2.3's spring.profiles) is keyed by it, not by its
# position -- inserting a document above must not renumber, and so retire, every setting below.
_SPRING_YAML = re.compile(r"^(?:application|bootstrap)(?:-[\w.-]+)?\.ya?ml$")
_PROFILE_KEYS = {("spring", "config", "activate", "on-profile"), ("spring", "profiles")}


def _by_profile(leaves: list) -> list:
    if not leaves or not isinstance(leaves[0][0][0] if leaves[0][0] else None, int):
        return leaves  # one document: no index to replace
    profiles: dict[int, str] = {}
    for parts, value, _line in leaves:
        if tuple(parts[1:]) in _PROFILE_KEYS and isinstance(value, str) and value:
            profiles.setdefault(parts[0], value)
    if len(set(profiles.values())) != len(profiles):  # one profile twice: positions tell them apart
        return leaves
    return [((f"@{profiles[parts[0]]}", *parts[1:]) if parts[0] in profiles else parts, value, line)
            for parts, value, line in leaves]


class ConfigMiner:
    name = "config"

    def accepts(self, path: str) -> bool:
        parts = path.lower().split("/")
        if "node_modules" in parts or parts[-1] in _LOCKS or parts[-1].endswith(".lock"):
            return False
        if _DATA_DIRS.intersection(parts[:-1]):
            return False
        return _format(path) is not None

    def mine(self, path: str, text: str) -> list[Fact]:
        fmt = _format(path)
        if fmt is None or (fmt in ("json", "jsonc") and text.lstrip("\ufeff \t\r\n").startswith("[")):
            return []
        base = path.rsplit("/", 1)[-1].lower()
        leaves = P.parse_versions(text, _VERSION_FILES[base]) if fmt == "versions" \
            else _PARSERS[fmt](text)
        if len(leaves) > MAX_FACTS_PER_FILE:  # before any per-leaf work
            raise too_many(len(leaves), "settings")
        if fmt == "yaml" and _SPRING_YAML.match(base):
            leaves = _by_profile(leaves)
        lines = _Lines(text.splitlines(), _COMMENTS[fmt])
        is_workflow = fmt == "yaml" and re.match(r"(.*/)?\.github/workflows/[^/]+$", path)
        facts: dict[str, Fact] = {}  # by key: a repeated key (YAML merge, duplicate) -- last wins
        matrix: dict[str, tuple[list[str], int]] = {}

        for parts, value, line in leaves:
            if _owned(base, parts):
                continue
            if is_workflow and self._matrix_item(parts, value, line, matrix):
                continue
            if base == "tox.ini" and parts == ("tox", "envlist"):
                f = self._set_fact(f"python:tox-envlist:{path}", f"tox environments ({path})",
                                   _envlist(value), path, line, lines,
                                   f"tox envlist environments python versions tested ({path})")
                facts[f.key] = f
                continue
            f = self._leaf_fact(path, fmt, parts, value, line, lines)
            facts[f.key] = f

        for job, (items, line) in matrix.items():
            f = self._set_fact(f"python:ci-matrix:{path}:{job}", f"Python versions tested in CI ({job})",
                               items, path, line, lines,
                               f"python versions tested in CI matrix github actions ({job}, {path})")
            facts[f.key] = f
        return list(facts.values())

    @staticmethod
    def _matrix_item(parts: tuple, value, line: int, matrix: dict) -> bool:
        """Collect ``jobs.<job>.strategy.matrix.python-version`` (and matrix ``include`` entries)."""
        if len(parts) < 5 or parts[0] != "jobs" or parts[2:4] != ("strategy", "matrix"):
            return False
        if parts[-1] not in _PY_KEYS or not (len(parts) == 5 or (
                len(parts) == 7 and parts[4] == "include" and isinstance(parts[5], int))):
            return False
        items = value if isinstance(value, list) else [value]
        if any("${{" in i for i in items):  # an expression, not versions: keep it as a setting
            return False
        have, first = matrix.get(str(parts[1]), ([], line))
        matrix[str(parts[1])] = (have + items, min(first, line))
        return True

    @staticmethod
    def _set_fact(key, subject, items, path, line, lines, purpose) -> Fact:
        return Fact(key=key, kind=PYTHON, subject=subject, value=set_value(items), path=path,
                    line=line, text=lines.text(line, items[0] if items else ""), purpose=purpose,
                    is_set=True)

    @staticmethod
    def _leaf_fact(path, fmt, parts, value, line, lines) -> Fact:
        dotted = ".".join(str(p) for p in parts)
        # an empty list is a value ("default = []"), not an empty one
        text_value = (", ".join(value) or "[]") if isinstance(value, list) else value
        purpose = f"{words(*parts)} ({path_words(path)})"
        runtime = _CI_RUNTIMES.get(str(parts[-1]).lower()) if len(parts) == 5 \
            and parts[0] == "jobs" and parts[2:4] == ("strategy", "matrix") else None
        if runtime:  # as Python's matrix says it (python:ci-matrix): "which node versions are tested in CI"
            purpose += f" - {runtime} versions tested in CI matrix ({parts[1]})"
        if fmt == "versions":  # "which node version does nvm use?"
            purpose += f" - {parts[0]} version pinned for the version manager"
        tool = tool_of(path)
        if tool and tool not in purpose:  # "is strict mode on in typescript?": tsconfig.json
            purpose += f" - {tool} setting"
        comment = lines.comment(line)
        if fmt == "jsonc":  # a /* block */ comment's markers
            comment = comment.strip("*/ ")
        if comment:
            purpose += f": {comment}"
        # a Prisma model's field is defined by its type, as a Python model's (secrets.py)
        field = fmt == "prisma" and parts[0] in ("model", "view", "type")
        # a version manager's pin is the runtime's version, asked for as a requirement is
        # ("what node version is used?": repomem.service.rank)
        attrs = (("field", "true"),) if field else (("runtime", "true"),) if fmt == "versions" else ()
        return file_setting(path, dotted, text_value, line, lines.text(line, text_value), purpose, attrs)


class _Lines:
    """A file's lines, with the two per-leaf lookups bounded on a long (minified) line: the
    source text is an excerpt around the value, found from where the previous leaf of that line
    was (leaves come in file order, so one line is scanned once, not once per leaf); the comment
    is looked up once per line."""

    WINDOW = 65536

    def __init__(self, lines: list[str], prefixes: str):
        self.lines, self.prefixes = lines, prefixes
        self.cursor: dict[int, int] = {}
        self.comments: dict[int, str] = {}

    def text(self, line: int, value: str) -> str:
        src = source_line(self.lines, line)
        if len(src) <= MAX_TEXT:
            return src
        start = self.cursor.get(line, 0)
        needle = value[:60]
        i = src.find(needle, start, start + self.WINDOW) if needle else -1
        if i < 0:
            i = start
        else:
            self.cursor[line] = i + len(needle)
        return excerpt(src[max(0, i - MAX_TEXT):i + 2 * MAX_TEXT], needle)

    def comment(self, line: int) -> str:
        if line not in self.comments:
            here = source_line(self.lines, line)
            self.comments[line] = "" if len(here) > 4 * MAX_TEXT else \
                comment_for(self.lines, line, self.prefixes)
        return self.comments[line]


MINER = ConfigMiner()

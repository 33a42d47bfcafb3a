"""Gradle build scripts (``build.gradle``, ``build.gradle.kts`` and other ``*.gradle(.kts)``
scripts): plugins, dependencies and the Java version; settings scripts (``settings.gradle``,
``settings.gradle.kts``): the root project's name and the projects the build includes.

A build script is a program (Groovy or Kotlin) and no Python library parses either, so this
reads a few narrow, line-oriented patterns -- the ones ``gradle init``, Spring Initializr and
the Gradle manuals write -- and leaves everything else alone:

* in a ``plugins { }`` block: ``id 'x' version 'v'``, ``id("x") version "v"``,
  ``kotlin("jvm") version "v"`` (the plugin ``org.jetbrains.kotlin.jvm``), ``java`` or
  ``\\`java-library\\```; anywhere: ``apply plugin: 'x'`` -> ``dependency:gradle:<project>:plugin:<id>``,
  the version as the value, ``*`` when none is written (a core plugin, or one put on the
  classpath by ``buildscript``);
* in a ``dependencies { }`` block: ``<configuration> 'group:name:version'`` (with or without
  parentheses, single or double quotes, ``platform(...)`` around it) and the map notation
  ``group: 'g', name: 'n', version: 'v'``; ``kotlin("reflect")`` is
  ``org.jetbrains.kotlin:kotlin-reflect``.  The group comes from the configuration:
  ``implementation``/``api``/``compile`` -> ``main``, ``compileOnly`` -> ``provided``,
  ``runtimeOnly``/``runtime`` -> ``runtime``, ``test*`` -> ``test``, ``developmentOnly`` -> ``dev``,
  ``annotationProcessor``/``kapt`` -> ``annotation-processor``, ``classpath`` (``buildscript``) ->
  ``buildscript``, any other -> the configuration's name.  The value is the version, ``managed``
  when none is written (a BOM or the dependency-management plugin pins it);
* ``$name``/``${name}`` in a double-quoted string resolved from ``ext``/``extra`` properties and
  ``def``/``val`` variables of the same script bound to a literal (else kept as written);
* the Java version: ``java { toolchain { languageVersion = JavaLanguageVersion.of(17) } }``,
  ``jvmToolchain(17)``, ``sourceCompatibility = '17'``/``JavaVersion.VERSION_17``/``1.8`` ->
  ``dependency:gradle:<project>:engines:java`` (the toolchain first);
* settings keyed by file: the project's top-level ``group``, ``version`` and ``description``,
  ``sourceCompatibility``/``targetCompatibility``, the toolchain's ``java.toolchain.languageVersion``
  and each ``ext`` property (``config:<path>:ext.springBootVersion``);
* a settings script states no dependency and no plugin (its ``pluginManagement`` and
  ``dependencyResolutionManagement`` blocks are not read), only two top-level statements:
  ``rootProject.name = 'x'`` -> ``config:<path>:rootProject.name`` and each project of
  ``include 'a', ':b:c'`` / ``include("a")`` -> ``config:<path>:include.<name>`` (the name
  without its leading colon, the colons between nested projects as dots: ``include.b.c``),
  value the project path as written.

Comments and string contents are blanked before braces are counted, so neither a ``//`` in a
URL nor a brace in ``"${v}"`` misleads the block tracking.
"""

from __future__ import annotations

import dataclasses
import re

from repomem.core.buildprops import PROPERTIES
from repomem.core.buildprops import REF as _REF
from repomem.core.model import Fact, file_setting
from repomem.core.recent import recent
from repomem.miners._text import path_words, source_line, words
from repomem.miners.manifests import _Out, made

_STR = r"""(?:'([^'\n]*)'|"([^"\n]*)")"""  # one quoted literal: group 1 or 2
_CONFIGURATION = re.compile(
    r"^(?:\w*(?:[iI]mplementation|[aA]pi|[cC]ompile|[cC]ompileOnly|[rR]untime|[rR]untimeOnly"
    r"|[aA]nnotationProcessor)|kapt\w*|classpath|developmentOnly)$")
_DEP = re.compile(r"^\s*(\w+)\s*\(?\s*((?:platform|enforcedPlatform)\s*\(\s*)?" + _STR)
_DEP_MAP = re.compile(r"^\s*(\w+)\s*\(?\s*group\s*[:=]\s*" + _STR + r"\s*,\s*name\s*[:=]\s*" + _STR
                      + r"(?:\s*,\s*version\s*[:=]\s*" + _STR + r")?")
_DEP_KOTLIN = re.compile(r"^\s*(\w+)\s*\(\s*kotlin\s*\(\s*" + _STR + r"\s*(?:,\s*" + _STR + r"\s*)?\)")
_PLUGIN_ID = re.compile(r"^\s*id\s*\(?\s*" + _STR + r"\s*\)?(?:\s*version\s*\(?\s*" + _STR + r"\s*\)?)?")
_PLUGIN_KOTLIN = re.compile(r"^\s*kotlin\s*\(\s*" + _STR + r"\s*\)(?:\s*version\s*\(?\s*" + _STR + r"\s*\)?)?")
_PLUGIN_BARE = re.compile(r"^\s*(?:`([\w-]+)`|(java|application|groovy|scala|war|ear|eclipse|idea|"
                          r"jacoco|checkstyle|pmd|signing|distribution))\s*$")
_APPLY = re.compile(r"\bapply\s*\(?\s*plugin\s*[:=]\s*" + _STR)
_ASSIGN = re.compile(r"^\s*(?:(?:ext|project\.ext|extra)\.|def\s+|val\s+|var\s+)?(\w+)\s*=\s*(.+?)\s*;?\s*$")
_EXTRA_KTS = re.compile(r"""^\s*(?:extra|ext)\s*\[\s*["'](\w+)["']\s*\]\s*=\s*(.+?)\s*$"""
                        r"""|^\s*val\s+(\w+)\s+by\s+extra\s*\(\s*(.+?)\s*\)\s*$""")
_TOOLCHAIN = re.compile(r"languageVersion(?:\.set\s*\(\s*|\s*=\s*|\s*\.\s*value\s*\(\s*)"
                        r"JavaLanguageVersion\s*\.\s*of\s*\(\s*['\"]?(\d+)['\"]?\s*\)")
_JVM_TOOLCHAIN = re.compile(r"\bjvmToolchain\s*\(\s*(\d+)\s*\)")
_JAVA_VERSION = re.compile(r"^JavaVersion\.VERSION_(\d+(?:_\d+)?)$")
_BLOCK = re.compile(r"(\w+)\s*(?:\([^()]*\))?\s*(?:<[^<>]*>)?\s*$")
# property("x"), findProperty("x"), project.property("x") as String, providers.gradleProperty("x").get():
# a Gradle property, read like ${x}
_PROPERTY_CALL = re.compile(r"""^(?:(?:rootProject|project)\s*\.\s*)?(?:property|findProperty)\s*\(\s*"""
                            r"""["'](\w+)["']\s*\)(?:\s*as\s+String\??|\s*\.toString\(\s*\)|\s*!!)?$"""
                            r"""|^providers\s*\.\s*gradleProperty\s*\(\s*["'](\w+)["']\s*\)\s*\.\s*get\(\s*\)$""")
_COMPAT_ASSIGN = re.compile(r"^\s*(?:java\.)?(sourceCompatibility|targetCompatibility)\s*=\s*(.+?)\s*;?\s*$")
_ONE_LINE_JAVA = re.compile(r"^\s*java\s*\{(.*)\}\s*$")
_PROJECT_ASSIGN = re.compile(r"^\s*(group|version|description)\s*=\s*(.+?)\s*;?\s*$")
_ROOT_NAME = re.compile(r"^\s*rootProject\s*\.\s*name\s*=\s*" + _STR + r"\s*;?\s*$")
_INCLUDE = re.compile(r"^\s*include\b\s*\(?")
_LITERAL = re.compile(_STR)


# A comment, or a quoted string's content (an escape may hide a quote or a line break; an
# unclosed string ends at its line) and the character that ends it.
_LEX = re.compile(r"""//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)"""
                  r"""|'((?:[^'\\\n]+|\\[\s\S]?)*)[\s\S]?|"((?:[^"\\\n]+|\\[\s\S]?)*)[\s\S]?""")
_NOT_NEWLINE = re.compile(r"[^\n]")
_BRACE = re.compile(r"[{}]")


def _blank(text: str) -> tuple[str, str]:
    """(code, shape): the text with comments blanked, and that with string contents blanked too;
    both keep every line break and offset."""
    code, shape, pos = [], [], 0
    for m in _LEX.finditer(text):
        a, b = m.span()
        code.append(text[pos:a])
        shape.append(text[pos:a])
        g = 1 if m.start(1) >= 0 else 2 if m.start(2) >= 0 else 0
        if g:
            c0, c1 = m.span(g)
            code.append(text[a:b])
            shape.append(text[a:c0] + " " * (c1 - c0) + text[c1:b])
        else:
            blank = _NOT_NEWLINE.sub(" ", text[a:b])
            code.append(blank)
            shape.append(blank)
        pos = b
    code.append(text[pos:])
    shape.append(text[pos:])
    return "".join(code), "".join(shape)


def _quoted(m: re.Match, first: int) -> tuple[str, bool] | None:
    """(content, double-quoted) of the literal whose two alternatives are groups first, first+1."""
    if m.group(first) is not None:
        return m.group(first), False
    if m.group(first + 1) is not None:
        return m.group(first + 1), True
    return None


def _group(configuration: str) -> str:
    c = configuration
    if c.startswith("test") or c.startswith("kaptTest"):
        return "test"
    if c in ("implementation", "api", "compile"):
        return "main"
    return {"compileOnly": "provided", "runtimeOnly": "runtime", "runtime": "runtime",
            "developmentOnly": "dev", "annotationProcessor": "annotation-processor", "kapt": "annotation-processor",
            "classpath": "buildscript"}.get(c, c)


def _blocks(shape: list[str]) -> list[tuple[str, ...]]:
    """The names of the blocks each line starts in (``("java", "toolchain")``), from the lines
    with comments and string contents blanked."""
    stack: list[str] = []
    out = []
    for line in shape:
        out.append(tuple(stack))
        for brace in _BRACE.finditer(line):
            if brace.group() == "{":
                m = _BLOCK.search(line[:brace.start()])
                stack.append(m.group(1) if m else "")
            elif stack:
                stack.pop()
    return out


_SETTINGS: dict[tuple, Fact] = {}  # each setting's fact by what it is made of (manifests.made)


def _setting(path: str, lines: list[str], dotted: str, value: str, line: int, what: str) -> Fact:
    """A setting of a script, keyed by file: ``config:<path>:<dotted>``."""
    text = source_line(lines, line)
    return made(_SETTINGS, (path, dotted, value, line, text, what), lambda: file_setting(
        path, dotted, value, line, text, f"{words(*dotted.split('.'))} - {what} ({path_words(path)}, gradle)"))


# one script is often mined at several paths in one commit (repomem.core.recent)
@recent(size=8, max_chars=65_536)
def _lines(text: str) -> tuple[list[str], list[tuple[str, ...]]]:
    """(each line with comments blanked, the blocks each line starts in)."""
    code, shape = _blank(text)
    return code.splitlines(), _blocks(shape.splitlines())


class _Script:
    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self.out = _Out(path, text, "gradle")
        self.code, self.blocks = _lines(text)
        self.vars: dict[str, str] = {}
        self.java: list[tuple[int, int, str, str]] = []  # (rank, line, value, as written)

    def value(self, raw: str) -> str | None:
        """A literal's value (a double-quoted one interpolated), a number, a JavaVersion."""
        raw = raw.strip().rstrip(";").strip()
        m = re.fullmatch(_STR, raw)
        if m:
            content, double = _quoted(m, 1) or ("", False)
            return self.interpolate(content) if double else content
        if re.fullmatch(r"\d+(?:\.\d+)*", raw):
            return raw
        m = _JAVA_VERSION.match(raw)
        if m:
            return m.group(1).replace("_", ".")
        m = _PROPERTY_CALL.match(raw)
        if m:
            return "${" + (m.group(1) or m.group(2)) + "}"
        return None

    def interpolate(self, s: str) -> str:
        return _REF.sub(lambda m: self.vars.get(m.group(1) or m.group(2), m.group(0)), s)

    def mine(self) -> list[Fact]:
        self._variables()
        for n, (code, blocks) in enumerate(zip(self.code, self.blocks), 1):
            inner = blocks[-1] if blocks else ""
            if inner == "plugins":
                self._plugin(code, n)
            elif "dependencies" in blocks:
                self._dependency(code, n, "buildscript" in blocks)
            if "apply" in code:  # each pattern below holds its word: most lines hold none
                for m in _APPLY.finditer(code):
                    got = _quoted(m, 1)
                    if got:
                        self.plugin(got[0], "*", n)
            if "=" in code or "Toolchain" in code or "languageVersion" in code:
                self._java_and_settings(code, n, blocks)
        if self.java:
            _, line, value, written = sorted(self.java)[0]
            self.out.dep("engines", "java", value, line, (("declared", written),) if value != written else (),
                         what="Java language")
        return [_reads_properties(f) for f in self.out.facts.values()]

    def _variables(self) -> None:
        for n, (code, blocks) in enumerate(zip(self.code, self.blocks), 1):
            if "=" not in code and "extra" not in code:  # what both patterns need
                continue
            m = _EXTRA_KTS.match(code)
            if m:
                name, raw = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            else:
                m = _ASSIGN.match(code)
                if m is None or not (code.lstrip().startswith(("ext.", "project.ext.", "extra.", "def ", "val ",
                                                               "var ")) or (blocks and blocks[-1] == "ext")):
                    continue
                name, raw = m.group(1), m.group(2)
            value = self.value(raw)
            if value is None:
                continue
            self.vars[name] = value
            if not code.lstrip().startswith(("def ", "val ", "var ")) or "extra" in code:
                self.setting(f"ext.{name}", value, n, "Gradle extra property")

    def plugin(self, pid: str, version: str, line: int) -> None:
        self.out.dep("plugin", pid, version, line, what="Gradle plugin")

    def _plugin(self, code: str, n: int) -> None:
        m = _PLUGIN_ID.match(code)
        if m:
            pid, ver = _quoted(m, 1), _quoted(m, 3)
            if pid:
                self.plugin(pid[0], self.interpolate(ver[0]) if ver else "*", n)
            return
        m = _PLUGIN_KOTLIN.match(code)
        if m:
            short, ver = _quoted(m, 1), _quoted(m, 3)
            if short:
                self.plugin(f"org.jetbrains.kotlin.{short[0]}", self.interpolate(ver[0]) if ver else "*", n)
            return
        m = _PLUGIN_BARE.match(code)
        if m:
            self.plugin(m.group(1) or m.group(2), "*", n)

    def _dependency(self, code: str, n: int, buildscript: bool) -> None:
        m = _DEP_MAP.match(code)
        if m and _CONFIGURATION.match(m.group(1)):
            g, a, v = _quoted(m, 2), _quoted(m, 4), _quoted(m, 6)
            if g and a:
                self.dependency(m.group(1), f"{g[0]}:{a[0]}", self.interpolate(v[0]) if v else None, n)
            return
        m = _DEP_KOTLIN.match(code)
        if m and _CONFIGURATION.match(m.group(1)):
            short, v = _quoted(m, 2), _quoted(m, 4)
            if short:
                self.dependency(m.group(1), f"org.jetbrains.kotlin:kotlin-{short[0]}", v[0] if v else None, n)
            return
        m = _DEP.match(code)
        if m and _CONFIGURATION.match(m.group(1)):
            got = _quoted(m, 3)
            if got is None:
                return
            coords = self.interpolate(got[0]) if got[1] else got[0]
            parts = coords.split("@", 1)[0].split(":")
            if len(parts) < 2 or not all(parts[:2]):
                return  # files("libs/x.jar"), project(":core") and the like are not artifacts
            self.dependency(m.group(1), f"{parts[0]}:{parts[1]}", parts[2] if len(parts) > 2 and parts[2] else None,
                            n, platform=m.group(2) is not None)

    def dependency(self, configuration: str, name: str, version: str | None, n: int, platform: bool = False) -> None:
        attrs = [("configuration", configuration)]
        if platform:
            attrs.append(("platform", "true"))
        self.out.dep(_group(configuration), name, version or "managed", n, attrs, what="Gradle artifact")

    def _java_and_settings(self, code: str, n: int, blocks: tuple[str, ...]) -> None:
        one = _ONE_LINE_JAVA.match(code)
        if one and not blocks:  # java { sourceCompatibility = '17' }
            code, blocks = one.group(1), ("java",)
        m = _TOOLCHAIN.search(code)
        if m and (not blocks or "java" in blocks or "toolchain" in blocks or "java.toolchain" in code):
            self.java.append((0, n, m.group(1), m.group(1)))
            self.setting("java.toolchain.languageVersion", m.group(1), n, "Java toolchain version")
            return
        m = _JVM_TOOLCHAIN.search(code)
        if m:
            self.java.append((0, n, m.group(1), m.group(1)))
            self.setting("kotlin.jvmToolchain", m.group(1), n, "Java toolchain version")
            return
        m = _COMPAT_ASSIGN.match(code)
        if m and (not blocks or blocks == ("java",)):
            name, value = m.group(1), self.value(m.group(2))
            if value is not None:
                self.java.append((1 if name == "sourceCompatibility" else 2, n, value, m.group(2).strip()))
                self.setting(f"java.{name}" if blocks or code.lstrip().startswith("java.") else name, value, n,
                             "Java version compiled for")
            return
        m = _PROJECT_ASSIGN.match(code)
        if m and not blocks:
            value = self.value(m.group(2))
            if value is not None:
                self.setting(m.group(1), value, n, "the project's " + m.group(1))

    def setting(self, dotted: str, value: str, line: int, what: str) -> None:
        fact = _setting(self.path, self.out.lines, dotted, value, line, what)
        self.out.facts[fact.key] = fact


def _reads_properties(fact: Fact) -> Fact:
    """A value that names properties the script does not bind lists them (attr ``properties``):
    the ledger resolves them from gradle.properties and parent projects (core/buildprops.py)."""
    names = sorted({m.group(1) or m.group(2) for m in _REF.finditer(fact.value)})
    if not names:
        return fact
    return dataclasses.replace(fact, attrs=tuple(sorted([*fact.attrs, (PROPERTIES, " ".join(names))])))


class _Settings:
    """A settings script: the root project's name and the included projects, read from top-level
    statements only (a block such as ``pluginManagement { }`` holds neither)."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.lines = text.splitlines()
        self.code, self.blocks = _lines(text)
        self.facts: dict[str, Fact] = {}

    def mine(self) -> list[Fact]:
        depth, continued = 0, False  # an include's list going on over the next line
        for n, (code, blocks) in enumerate(zip(self.code, self.blocks), 1):
            if blocks:  # pluginManagement { }, dependencyResolutionManagement { }: neither is read
                continued = False
                continue
            m = _ROOT_NAME.match(code)
            if m:
                name = _quoted(m, 1)
                if name and name[0].strip():
                    self.setting("rootProject.name", name[0], n, "the name of the Gradle build's root project")
                continued = False
                continue
            start = _INCLUDE.match(code)
            if start is None and not continued:
                continue
            rest = code[start.end():] if start else code
            for lit in _LITERAL.finditer(rest):
                got = _quoted(lit, 1)
                if got:
                    self.include(got[0], n)
            shape = _LITERAL.sub("''", rest)
            if start is not None:
                depth = start.group().count("(")
            depth += shape.count("(") - shape.count(")")
            continued = depth > 0 or shape.rstrip().endswith(",")
        return list(self.facts.values())

    def include(self, project: str, line: int) -> None:
        name = ".".join(p for p in project.strip().split(":") if p)
        if name:
            self.setting(f"include.{name}", project, line, "a project (sub-project) the Gradle build includes")

    def setting(self, dotted: str, value: str, line: int, what: str) -> None:
        fact = _setting(self.path, self.lines, dotted, value, line, what)
        self.facts[fact.key] = fact


def _outside_output(parts: list[str]) -> bool:
    return not {"build", "node_modules", ".gradle"}.intersection(parts[:-1])


def is_settings_script(path: str) -> bool:
    parts = path.split("/")
    return parts[-1] in ("settings.gradle", "settings.gradle.kts") and _outside_output(parts)


def is_build_script(path: str) -> bool:
    parts = path.split("/")
    base = parts[-1]
    return base.endswith((".gradle", ".gradle.kts")) and not base.startswith(("settings.", "init.")) \
        and _outside_output(parts)


class GradleMiner:
    name = "gradle"

    def accepts(self, path: str) -> bool:
        return is_build_script(path) or is_settings_script(path)

    def mine(self, path: str, text: str) -> list[Fact]:
        if is_settings_script(path):
            return _Settings(path, text).mine()
        return _Script(path, text).mine()


MINER = GradleMiner()

"""Maven ``pom.xml``: the parent, properties, dependencies, plugins and the Java version.

Keyed like every other manifest's dependencies (deps.py, docs/facts.md), ecosystem ``maven``,
scoped by the pom's directory, named ``groupId:artifactId``:
``dependency:maven:<project>:<group>:<groupId>:<artifactId>``.

* ``<parent>`` -> group ``parent``; ``<dependencies>`` -> the dependency's scope (``compile`` or
  none: ``main``; ``test``, ``provided``, ``runtime``, ``system``); ``<dependencyManagement>`` ->
  ``managed``; ``<build><plugins>`` -> ``plugin``; ``<build><pluginManagement>`` ->
  ``managed-plugin`` (a plugin's groupId defaults to ``org.apache.maven.plugins``).
* The value is the version with ``${...}`` resolved from ``<properties>``, ``project.version``,
  ``project.parent.version`` and the like (a reference that resolves to nothing is kept as
  written); no version at all is ``managed`` (the parent or a BOM pins it).
* The Java version (``maven.compiler.release``, ``java.version``, ``maven.compiler.source``, or
  the compiler plugin's ``<release>``/``<source>``) -> ``dependency:maven:<project>:engines:java``.
* Each ``<properties>`` entry and the project's own identity (direct children of ``<project>``,
  never the ``<parent>``'s) are settings keyed by file: ``config:<path>:properties.<name>``,
  ``config:<path>:groupId``, ``:artifactId``, ``:version``, ``:name``, ``:packaging`` and
  ``:description`` (on one line, spaces normalised), ``${...}`` resolved as a version is.
* Each ``<modules><module>`` of an aggregator pom: ``config:<path>:modules.<module>`` (value the
  module's folder as written).
* A ``<profile>``'s properties, dependencies and plugins, under its ``<id>``:
  ``config:<path>:profiles.<id>.properties.<name>``, dependency group ``profile-<id>`` (and
  ``profile-<id>-plugin``), versions resolved from the profile's properties over the project's;
  ``config:<path>:profiles.<id>.active`` is ``true`` for a profile active by default.

Parsed by expat with the handlers defusedxml's SAX reader sets (the file is untrusted input: an
entity declaration or an external reference is refused), which also gives each element's line;
an XML error is a MineError.
"""

from __future__ import annotations

import re
from xml.parsers import expat

from defusedxml import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden

from repomem.core.model import Fact, file_setting
from repomem.core.recent import recent
from repomem.miners._base import MineError
from repomem.miners._pysource import MAX_TEXT_LINES
from repomem.miners._text import path_words, words
from repomem.miners.manifests import _Out, made

_SCOPES = {"compile": "main", "": "main", "test": "test", "provided": "provided", "runtime": "runtime",
           "system": "system", "import": "managed"}
_JAVA_PROPS = ("maven.compiler.release", "java.version", "maven.compiler.source")
_REF = re.compile(r"\$\{([^}]+)\}")
# the project's own identity, direct children of <project> (never <parent>'s)
_IDENTITY = (("groupId", "the project's own group id (Maven coordinates)"),
             ("artifactId", "the project's own artifact id, its name (Maven coordinates)"),
             ("version", "the project's version"),
             ("name", "the project's display name"),
             ("packaging", "the project's packaging (jar, war, pom)"),
             ("description", "the project's description"))
MAX_DEPTH = 64  # elements deep: a pom is a dozen; deeper is hostile input


class _El:
    __slots__ = ("tag", "text", "line", "end", "children")

    def __init__(self, tag: str, line: int):
        self.tag, self.line, self.end = tag, line, line
        self.text = ""
        self.children: list[_El] = []

    def child(self, tag: str) -> _El | None:
        return next((c for c in self.children if c.tag == tag), None)

    def value(self, tag: str) -> str:
        c = self.child(tag)
        return c.text.strip() if c is not None else ""

    def path(self, *tags: str) -> list[_El]:
        """The elements at a path of child tags (each step may match several)."""
        level = [self]
        for t in tags:
            level = [c for e in level for c in e.children if c.tag == t]
        return level


class _Builder:
    """The element tree of a pom, built from expat's events; each element's line is where
    expat's event for it is (as SAX's locator gives it)."""

    def __init__(self, parser) -> None:
        self.parser = parser
        self.stack: list[_El] = []
        self.root: _El | None = None

    def start(self, name: str, attrs) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise MineError(f"XML nested over {MAX_DEPTH} levels")
        # a prefixed pom (<m:project>) is rare
        el = _El(name.rsplit(":", 1)[-1], self.parser.CurrentLineNumber)
        if self.stack:
            self.stack[-1].children.append(el)
        else:
            self.root = el
        self.stack.append(el)

    def end(self, name: str) -> None:
        self.stack.pop().end = self.parser.CurrentLineNumber

    def characters(self, content: str) -> None:
        if self.stack:
            self.stack[-1].text += content


def _refuse_entity(name, is_parameter_entity, value, base, sysid, pubid, notation_name):
    raise EntitiesForbidden(name, value, base, sysid, pubid, notation_name)


def _refuse_unparsed_entity(name, base, sysid, pubid, notation_name):
    raise EntitiesForbidden(name, None, base, sysid, pubid, notation_name)


def _refuse_external(context, base, sysid, pubid):
    raise ExternalReferenceForbidden(context, base, sysid, pubid)


def parse_pom(text: str) -> _El:
    """The pom's element tree, read by expat with the handlers defusedxml's SAX reader sets
    (an entity declaration or an external reference is refused: no entity expansion, no
    fetch), without SAX's layer of objects around each event (a history's poms are parsed by
    the hundred)."""
    parser = expat.ParserCreate()
    parser.EntityDeclHandler = _refuse_entity
    parser.UnparsedEntityDeclHandler = _refuse_unparsed_entity
    parser.ExternalEntityRefHandler = _refuse_external
    # as SAX's reader sets it: a DOCTYPE naming an external DTD asks for it, and is refused
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE)
    builder = _Builder(parser)
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.characters
    parser.buffer_text = True  # one call for a text node, not one per chunk or line
    try:
        parser.Parse(text.encode("utf-8"), True)
    except expat.ExpatError as e:
        raise MineError(f"XML: {expat.ErrorString(e.code)} (line {e.lineno})") from None
    except DefusedXmlException as e:
        raise MineError(f"XML: {e} (refused)") from None
    if builder.root is None:
        raise MineError("XML: no root element")
    return builder.root


_SETTINGS: dict[tuple, Fact] = {}  # each setting's fact by what it is made of (manifests.made)


# one pom is often mined at several paths in one commit (repomem.core.recent); a tree is only
# read after it is built
@recent(size=8, max_chars=65_536)
def _tree(text: str) -> _El:
    return parse_pom(text)


class _Pom:
    def __init__(self, path: str, text: str):
        self.path, self.root = path, _tree(text)
        self.out = _Out(path, text, "maven")
        self.lines = self.out.lines
        self.props = self._properties()

    def _properties(self) -> dict[str, str]:
        r = self.root
        props = {c.tag: c.text.strip() for p in r.path("properties") for c in p.children}
        parent = r.child("parent")
        version = r.value("version") or (parent.value("version") if parent is not None else "")
        group = r.value("groupId") or (parent.value("groupId") if parent is not None else "")
        for k, v in (("version", version), ("groupId", group), ("artifactId", r.value("artifactId"))):
            if v:
                props.setdefault(f"project.{k}", v)
                props.setdefault(f"pom.{k}", v)  # Maven 2's spelling
        if parent is not None:
            for k in ("version", "groupId", "artifactId"):
                if parent.value(k):
                    props.setdefault(f"project.parent.{k}", parent.value(k))
                    props.setdefault(f"parent.{k}", parent.value(k))
        return props

    def resolve(self, value: str) -> str:
        for _ in range(8):  # a property may name another; a cycle stops here
            if "${" not in value:
                break
            new = _REF.sub(lambda m: self.props.get(m.group(1).strip(), m.group(0)), value)
            if new == value:
                break
            value = new
        return value

    def rows(self, el: _El) -> str:
        last = min(el.end, el.line + MAX_TEXT_LINES - 1)
        return " ".join(ln.strip() for ln in self.lines[el.line - 1:last] if ln.strip())

    def artifact(self, el: _El, group: str, what: str, default_group: str = "") -> None:
        artifact = self.resolve(el.value("artifactId"))
        if not artifact:
            return
        gid = self.resolve(el.value("groupId")) or default_group
        name = f"{gid}:{artifact}" if gid else artifact
        written = el.value("version")
        value = self.resolve(written) if written else "managed"
        attrs = []
        if written and written != value:
            attrs.append(("declared", written))  # ${spring-boot.version}: where it comes from
        for k in ("type", "classifier"):
            if el.value(k) and (k, el.value(k)) != ("type", "jar"):
                attrs.append((k, el.value(k)))
        if el.value("optional") == "true":
            attrs.append(("optional", "true"))
        self.out.dep(group, name, value, el.line, attrs, what=what, text=self.rows(el))

    def setting(self, dotted: str, value: str, el: _El, what: str) -> None:
        resolved = self.resolve(value)
        text = self.rows(el)
        fact = made(_SETTINGS, (self.path, dotted, value, resolved, el.line, text, what), lambda: file_setting(
            self.path, dotted, resolved, el.line, text,
            f"{words(*dotted.split('.'))} - {what} ({path_words(self.path)}, maven)",
            (("declared", value),) if resolved != value else ()))
        self.out.facts[fact.key] = fact

    def mine(self) -> list[Fact]:
        r = self.root
        if r.tag != "project":
            return []
        parent = r.child("parent")
        if parent is not None:
            self.artifact(parent, "parent", "parent POM")
        for tag, what in _IDENTITY:
            own = r.child(tag)
            if own is not None and own.text.strip():
                # a description may run over several lines: one line, spaces normalised
                self.setting(tag, " ".join(own.text.split()), own, what)
        for props in r.path("properties"):
            for p in props.children:
                self.setting(f"properties.{p.tag}", p.text.strip(), p, "Maven build property")
        for dep in r.path("dependencies", "dependency"):
            scope = dep.value("scope")
            self.artifact(dep, _SCOPES.get(scope, scope or "main"), "Maven artifact")
        for dep in r.path("dependencyManagement", "dependencies", "dependency"):
            self.artifact(dep, "managed", "Maven artifact (managed version)")
        for plugin in r.path("build", "plugins", "plugin"):
            self.artifact(plugin, "plugin", "Maven build plugin", "org.apache.maven.plugins")
        for plugin in r.path("build", "pluginManagement", "plugins", "plugin"):
            self.artifact(plugin, "managed-plugin", "Maven build plugin (managed version)",
                          "org.apache.maven.plugins")
        for module in r.path("modules", "module"):
            name = module.text.strip()
            if name:
                self.setting(f"modules.{name}", name, module, "a module (sub-project) of the Maven build")
        for profile in r.path("profiles", "profile"):
            self.profile(profile)
        self.java()
        return list(self.out.facts.values())

    def profile(self, profile: _El) -> None:
        pid = profile.value("id")
        if not pid or "." in pid:  # a dotted id would read as a path of the key
            return
        own = [c for p in profile.path("properties") for c in p.children]
        saved = self.props
        self.props = {**saved, **{c.tag: c.text.strip() for c in own}}
        try:
            active = profile.path("activation", "activeByDefault")
            if active and active[0].text.strip() == "true":
                self.setting(f"profiles.{pid}.active", "true", active[0], f"Maven profile {pid} active by default")
            for p in own:
                self.setting(f"profiles.{pid}.properties.{p.tag}", p.text.strip(), p,
                             f"Maven build property of profile {pid}")
            for dep in profile.path("dependencies", "dependency"):
                self.artifact(dep, f"profile-{pid}", f"Maven artifact (profile {pid})")
            for plugin in profile.path("build", "plugins", "plugin"):
                self.artifact(plugin, f"profile-{pid}-plugin", f"Maven build plugin (profile {pid})",
                              "org.apache.maven.plugins")
        finally:
            self.props = saved

    def java(self) -> None:
        """The Java version the project compiles for: a property, else the compiler plugin's."""
        found: tuple[str, _El] | None = None
        for name in _JAVA_PROPS:
            el = next((c for p in self.root.path("properties") for c in p.children if c.tag == name), None)
            if el is not None and el.text.strip():
                found = (el.text.strip(), el)
                break
        if found is None:
            for plugin in self.root.path("build", "plugins", "plugin"):
                if plugin.value("artifactId") == "maven-compiler-plugin":
                    conf = plugin.child("configuration")
                    el = next((conf.child(t) for t in ("release", "source")
                               if conf is not None and conf.value(t)), None)
                    if el is not None:
                        found = (el.text.strip(), el)
        if found is not None:
            value = self.resolve(found[0])
            self.out.dep("engines", "java", value, found[1].line,
                         (("declared", found[0]),) if value != found[0] else (),
                         what="Java language", text=self.rows(found[1]))


class MavenMiner:
    name = "maven"

    def accepts(self, path: str) -> bool:
        parts = path.split("/")
        return parts[-1] == "pom.xml" and not {"target", "node_modules"}.intersection(parts[:-1])

    def mine(self, path: str, text: str) -> list[Fact]:
        if not text.strip():
            return []
        return _Pom(path, text).mine()


MINER = MavenMiner()

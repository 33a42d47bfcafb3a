"""Django URL configurations: the routes of a module's ``urlpatterns``.

``path("search/", views.search, name="search")``, ``re_path(r"^blog/(?P<slug>[\\w-]+)/$", ...)``
and the old ``url(...)`` are routes; ``path("blog/", include("blog.urls"))`` mounts another
URLconf under a prefix.  They use the wiring the Flask/FastAPI miner uses (_pyroutes): a module's
``urlpatterns`` is a router (``router:<module>:urlpatterns``, no prefix of its own), an
``include`` a ``mount`` of the included module's router with its prefix (``prepend``), and each
route carries ``router`` and ``path`` so the ledger composes the full path across files.
``include(api_urls)`` of a list the module binds itself (``api_urls = [path(...), ...]``), or of
a list written in place, gives that list's routes under the include's prefix.  A list of routes
the module binds but neither includes nor joins into urlpatterns (``urlpatterns += extra``) is
a router of its own, ``<module>:<name>``: another URLconf's ``include(api_urls)`` after ``from
hc.api.urls import api_urls`` mounts it, and the ledger composes the full path across files.

A route is keyed by its URLconf file and the name it is reversed by (``name="search"``: the
route's identity in Django), else by its view as written: ``route:<path>:<name or view>``.  Its
value is ``ANY /search/`` (a Django view takes every method unless it says otherwise).  Every
statement of the module that binds or extends ``urlpatterns`` counts, also under ``if
settings.DEBUG:``; ``i18n_patterns(...)`` and ``+`` concatenations are looked into.

``queries/python-urls.scm`` finds the bindings and the route calls; this module keeps the
module-level bindings, the calls not inside another, and composes ``include()`` prefixes.
"""

from __future__ import annotations

import re

from repomem.core.model import MOUNT, ROUTE, ROUTER, Fact
from repomem.core.routes import join
from repomem.miners._pysettings import _BLOCKS
from repomem.miners._pysource import MAX_TEXT_LINES, _collapse, _Source, _string_value, _words
from repomem.miners._pyvalues import _args

NAME = "urlpatterns"
MAX_ROUTES = 500  # one URLconf; a generated table past this states nothing anyone asks about
MAX_BLOCKS = 8  # if/try/with blocks around a binding that counts


def _module_level(stmt) -> bool:
    """A statement of the module, or inside its if/try/with blocks (the blocks the constants
    miner reads too) at most MAX_BLOCKS deep; not one of a function's or a class's body."""
    depth, p = 0, stmt.parent
    while p is not None and p.type != "module":
        if p.type not in _BLOCKS or depth == MAX_BLOCKS:
            return False
        depth, p = depth + 1, p.parent
    return p is not None


def _captured(root):
    """(bindings, route calls) of the file, from queries/python-urls.scm: the module-level
    ``name = value`` / ``name += value`` statements as (name, value, operator node) in source
    order, and every path()/re_path()/url() call by its start."""
    from tree_sitter import QueryCursor

    from repomem.miners.lang import LANGS, query

    bindings, calls = [], []
    for _, caps in QueryCursor(query(LANGS["python"], "python-urls.scm")).matches(root):
        if "route" in caps:
            calls.append(caps["route"][0])
            continue
        asg = caps["binding"][0]
        stmt = asg.parent
        if stmt.named_child_count == 1 and _module_level(stmt):
            bindings.append((asg.start_byte, asg, caps["binding.name"][0], caps["binding.value"][0]))
    bindings.sort(key=lambda b: b[0])
    calls.sort(key=lambda c: c.start_byte)
    return [b[1:] for b in bindings], calls


def _calls(calls: list, node):
    """The route calls in an expression, in source order (not inside them)."""
    end = node.start_byte
    for call in calls:
        if call.start_byte >= node.start_byte and call.end_byte <= node.end_byte and call.start_byte >= end:
            yield call
            end = call.end_byte


def _url(pattern: str, regex: bool) -> str:
    """A pattern as a path from the site root: ``search/`` -> ``/search/``; a regex keeps its
    groups but loses its anchors (``^blog/(?P<slug>[-\\w]+)/$`` -> ``/blog/(?P<slug>[-\\w]+)/``)."""
    if regex:
        pattern = re.sub(r"^\^|\$$", "", pattern)
    return "/" + pattern.lstrip("/")


class UrlConf:
    """One module's Django routes and includes, as route, router and mount facts."""

    def __init__(self, src: _Source, root, path: str, module: str, imports: dict[str, str]):
        self.src, self.path, self.module, self.imports = src, path, module, imports
        self.rid = f"{module}:{NAME}"
        self.facts: list[Fact] = []
        self.per_key: dict[str, int] = {}
        bindings, self.calls = _captured(root)
        values = [value for _, name, value in bindings if name.text == NAME.encode()]
        self.lists: dict[str, object] = {}  # the lists (or tuples) names are bound to: api_urls = [...]
        for asg, name, value in bindings:
            if asg.type == "assignment" and value.type in ("list", "tuple"):
                self.lists.setdefault(name.text.decode("utf-8", "replace"), value)
        self.included: set[str] = set()  # the lists this module includes itself
        self.routes = 0
        if values:
            self._router(self.rid, NAME, values[0])
            for value in values:
                self._calls(value, "", 0)
                self._joined(value)
        # A list of routes the module binds but does not include itself (``api_urls = [...]``
        # for another URLconf to ``include``): a router of its own, ``<module>:<name>``.
        for name, listed in reversed(self.lists.items()):  # api_urls = [.. include(v1) ..] after v1
            if name != NAME and name not in self.included and next(_calls(self.calls, listed), None) is not None:
                self.rid = f"{module}:{name}"
                self._router(self.rid, name, listed)
                self._calls(listed, "", 0)

    def _joined(self, value, depth: int = 0) -> None:
        """``urlpatterns = [...] + api_urls`` / ``urlpatterns += api_urls``: the routes of a list
        the module binds, joined into urlpatterns as they are (no prefix)."""
        if value.type == "parenthesized_expression" and value.named_child_count == 1 and depth < 8:
            self._joined(value.named_children[0], depth + 1)
        elif value.type == "binary_operator" and depth < 8:
            for side in (value.child_by_field_name("left"), value.child_by_field_name("right")):
                if side is not None:
                    self._joined(side, depth + 1)
        elif value.type == "identifier":
            name = self.src.text(value)
            listed = self.lists.get(name)
            if listed is not None and name != NAME and name not in self.included:
                self.included.add(name)
                self._calls(listed, "", 0)

    def _router(self, rid: str, name: str, value) -> None:
        line = value.parent.start_point[0]
        self.facts.append(Fact(
            key=f"{ROUTER}:{rid}", kind=ROUTER, subject=f"{name} of {self.module}", value="",
            path=self.path, line=line + 1, text=self.src.lines[line].strip(), purpose="",
            attrs=(("literal", "true"),)))

    def _calls(self, value, prefix: str, depth: int) -> None:
        for call in _calls(self.calls, value):
            if self.routes >= MAX_ROUTES:
                return
            self.routes += self._call(call, prefix, depth)

    def _call(self, call, prefix: str = "", depth: int = 0) -> int:
        src = self.src
        kind = src.text(call.child_by_field_name("function")).rsplit(".", 1)[-1]
        pos, kw = _args(call)
        given = pos[0] if pos else kw.get("route", kw.get("regex"))
        pattern = _string_value(src, given) if given is not None \
            and not src.text(given).lstrip("rR").startswith(("b", "B")) else None  # str only
        view = pos[1] if len(pos) > 1 else kw.get("view")
        if pattern is None or view is None:
            return 0
        url = _url(pattern, regex=kind != "path")
        if prefix:
            url = join(prefix, url)
        first, last = call.start_point[0], call.end_point[0]
        text = src.rows(first, min(last, first + MAX_TEXT_LINES - 1))
        if view.type == "call" and src.text(view.child_by_field_name("function")).rsplit(".", 1)[-1] == "include":
            return self._include(view, url, first, text, depth)
        name = _string_value(src, kw["name"]) if "name" in kw else None
        handler = _collapse(src.text(view))
        slot = f"{ROUTE}:{self.path}:{name or handler}"
        n = self.per_key[slot] = self.per_key.get(slot, 0) + 1
        words = " ".join(w for p in url.split("/") for w in _words(p))
        purpose = " - ".join(p for p in (words, " ".join(_words(name or "")),
                                         " ".join(_words(handler.split("(")[0]))) if p)
        attrs = [("handler", handler), ("path", url), ("router", self.rid)]
        if name:
            attrs.append(("name", name))
        self.facts.append(Fact(
            key=slot if n == 1 else f"{slot}#{n}", kind=ROUTE,
            subject=f"route {name or handler}", value=f"ANY {url}", path=self.path,
            line=first + 1, text=text, purpose=purpose, attrs=tuple(sorted(attrs))))
        return 1

    def _include(self, call, url: str, line: int, text: str, depth: int = 0) -> int:
        """``include("blog.urls")`` / ``include(blog_urls)``: a mount of that module's routes;
        ``include(api_urls)`` of a list of this module: its routes under URL."""
        pos, _ = _args(call)
        if not pos:
            return 0
        target = pos[0]
        if target.type == "tuple" and target.named_child_count:  # include((patterns, "app_name"))
            target = target.named_children[0]
        listed = target if target.type == "list" else \
            self.lists.get(self.src.text(target)) if target.type == "identifier" else None
        if listed is not None:
            self.included.add(self.src.text(target))
            if depth < 4:
                self._calls(listed, url, depth + 1)
            return 0
        module = _string_value(self.src, target)
        children = []
        if module is None and target.type in ("identifier", "attribute"):
            module = self._module(self.src.text(target))
            imported = self.imports.get(self.src.text(target), "")
            if ":" in imported:  # from hc.api.urls import api_urls: a module, or a list of one
                children.append(imported)
        if not module:
            return 0  # include([...]) of a list, include((patterns, app_name)): no module
        # Whichever of the children a router states is the one mounted; the other mounts nothing.
        for child in (f"{module}:{NAME}", *children):
            n = sum(1 for f in self.facts if f.kind == MOUNT) + 1
            self.facts.append(Fact(
                key=f"{MOUNT}:{self.path}:{child}#{n}", kind=MOUNT, subject=f"mount of {child}",
                value=url, path=self.path, line=line + 1, text=text.strip(), purpose="",
                attrs=(("child", child), ("given", "true"), ("literal", "true"), ("mode", "prepend"),
                       ("parent", self.rid))))
        return 1

    def _module(self, expr: str) -> str | None:
        """The module an imported name stands for: ``wagtailadmin_urls`` of ``from wagtail.admin
        import urls as wagtailadmin_urls`` is wagtail.admin.urls; ``debug_toolbar.urls``."""
        head, _, rest = expr.partition(".")
        target = self.imports.get(head)
        if target is None:  # import debug_toolbar ... include(debug_toolbar.urls)
            return expr if rest else None
        base = target.replace(":", ".")
        return f"{base}.{rest}" if rest else base

"""Routes of JavaScript/TypeScript, Go and Java files, and JS/TS router wiring.

* Express / Koa / Fastify: ``app.get('/x', h)``, ``router.post(...)``, ``app.route('/x').get(h)``;
  ``express.Router()``, ``new Router({prefix})`` (koa-router) and ``app.use('/prefix', router)``
  give the same ``router`` and ``mount`` facts as Python's APIRouter/include_router
  (miners/_pyroutes.py), so the ledger composes prefixes across files.  Router ids are
  ``<module>:<name>`` with the module the file's path (``src/routes/users.ts`` ->
  ``src.routes.users``, ``index`` dropped) and ``default`` for a default export (``export default
  router``, ``module.exports = router``); relative imports and ``require`` are resolved.
* NestJS: ``@Controller('users')`` on the class and ``@Get(':id')`` on the method.
* Go: ``http.HandleFunc("/x", h)`` (method from a Go 1.22 ``"GET /x"`` pattern, else ``ANY``),
  gin/echo ``r.GET``, chi ``r.Get``; ``v1 := r.Group("/v1")`` prefixes within the file.
* Spring: ``@RequestMapping`` on the class, ``@GetMapping``/``@PostMapping``/...,
  ``@RequestMapping(value=..., method=RequestMethod.X)`` on the method.

Files under test directories (``test/``, ``__tests__/``, ...) and test files (``*.test.ts``,
``*_test.go``, ``*Test.java``) state no routes: the apps they build are fixtures.

A route whose handler is a function of the same file is a fact about that function (anchor, key
suffix ``route``), so it follows the handler through renames and moves.  An inline or imported
handler has no anchor there: the route is keyed ``route:<path>:<METHOD> <path as written>``.
"""

from __future__ import annotations

import posixpath
import re

from repomem.miners._pyroutes import join
from repomem.miners._pysource import MAX_TEXT_LINES, _words
from repomem.model import MOUNT, ROUTE, ROUTER, Fact

ROUTE_PURPOSE_SUFFIX = " (HTTP endpoint / API route / URL path)"  # as in miners/python.py
_JS_ROUTERS = {"Router", "express.Router", "KoaRouter"}
_JS_APPS = {"express", "fastify", "Fastify", "Koa", "polka", "Hono"}
_JS_OBJECT = re.compile(r"^(app|router|api|server|fastify|routes?|\w*[Rr]outer|\w*[Aa]pp)$")
_JS_EXT = re.compile(r"\.(jsx?|mjs|cjs|tsx?|mts|cts)$")
_NEST = {"Get", "Post", "Put", "Delete", "Patch", "Options", "Head", "All"}
_SPRING = {"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT",
           "DeleteMapping": "DELETE", "PatchMapping": "PATCH", "RequestMapping": None}
_GO_PATH = re.compile(r"^(?:([A-Z]+)\s+)?(/\S*)$")


def js_module(path: str) -> str:
    mod = _JS_EXT.sub("", path).replace("/", ".")
    return mod[: -len(".index")] if mod.endswith(".index") else mod


def _slash(*parts: str) -> str:
    """Nest and Spring paths: segments joined under one leading slash."""
    segs = [p.strip("/") for p in parts if p and p.strip("/")]
    return "/" + "/".join(segs)


class Routes:
    def __init__(self, ff, funcs: dict, nodes: dict):
        self.ff, self.funcs, self.nodes = ff, funcs, nodes
        self.out: list[Fact] = []
        self.per_key: dict[str, int] = {}
        self.decorators: dict[tuple, list] = {}
        self.module = js_module(ff.path)
        self.imports: dict[str, str] = {}
        self.routers: dict[str, tuple | None] = {}  # local name -> (rid, prefix, literal); None: app
        self.defaults: set[str] = set()

    def facts(self) -> list[Fact]:
        if _is_test(self.ff.path):  # apps built inside tests are fixtures, not the project's API
            return []
        fam = self.ff.lang.family
        for caps in self.ff.matches:
            if "decorated" in caps:
                self.decorators.setdefault(_key(caps["decorated"][0]), []).extend(caps["decorator"])
        if fam == "js":
            self._js()
            self._decorated(self._nest)
        elif fam == "go":
            self._go()
        elif fam == "java":
            self._decorated(self._spring)
        return self.out

    # -- emitting -------------------------------------------------------------------------------
    def _handler_anchor(self, node) -> str | None:
        if node is None or node.type not in ("identifier", "member_expression", "selector_expression"):
            return None
        text = self.ff.text(node)
        exact = f"{self.ff.path}::{text.removeprefix('this.')}"
        if exact in self.funcs:
            return exact
        last = text.rsplit(".", 1)[-1]
        hits = [a for a, f in self.funcs.items() if f.value == last]
        return hits[0] if len(hits) == 1 else None

    def emit(self, method: str, url: str, value: str, attrs, node, anchor, handler: str) -> None:
        ff = self.ff
        stmt = ff.statement(node)
        doc = ff.doc(node) if stmt is not node or node.type != "call_expression" else None
        if doc is None and stmt.type == "expression_statement":
            doc = ff.doc(stmt)
        first = node.start_point[0]
        text = ff.src.rows(first, min(node.end_point[0], first + MAX_TEXT_LINES - 1))
        if anchor is not None:
            fn = self.funcs[anchor]
            base, subject, purpose = "route", f"route of {anchor.split('::', 1)[1]}", doc or fn.purpose
        else:
            base, subject = f"{ROUTE}:{ff.path}:{method} {url}", f"route {method} {url}"
            words = f"{method.lower()} {' '.join(w for p in url.split('/') for w in _words(p))}".strip()
            purpose = f"{doc} - {words}" if doc else words
        slot = anchor or base
        n = self.per_key[slot] = self.per_key.get(slot, 0) + 1
        self.out.append(Fact(
            key=base if n == 1 else f"{base}#{n}", kind=ROUTE, anchor=anchor, subject=subject,
            value=value, attrs=tuple(sorted((("handler", handler[:80]), *attrs))), path=ff.path,
            line=first + 1, text=text, purpose=purpose + ROUTE_PURPOSE_SUFFIX))

    def _decorated(self, parse) -> None:
        for anchor, node in self.nodes.items():
            decs = self.decorators.get(_key(node))
            if decs:
                for method, url in filter(None, (parse(d, node) for d in decs)):
                    self.emit(method, url, f"{method} {url}", (), node, anchor,
                              self.funcs[anchor].value)

    def _class_decorators(self, node):
        p = node.parent
        while p is not None and p.type not in ("class_declaration",):
            p = p.parent
        if p is None:
            return []
        out = list(self.decorators.get(_key(p), []))
        if p.parent is not None and p.parent.type == "export_statement":
            out += [c for c in p.parent.children if c.type == "decorator"]
        return out

    # -- NestJS and Spring ------------------------------------------------------------------------
    def _call(self, dec):
        """(name, argument nodes) of a decorator or annotation."""
        ff = self.ff
        if dec.type in ("annotation", "marker_annotation"):
            name, args = dec.child_by_field_name("name"), dec.child_by_field_name("arguments")
            return ff.text(name), [a for a in args.named_children] if args is not None else []
        inner = dec.named_children[0] if dec.named_child_count else None
        if inner is not None and inner.type == "call_expression":
            args = inner.child_by_field_name("arguments")
            return ff.text(inner.child_by_field_name("function")), list(args.named_children)
        return (ff.text(inner), []) if inner is not None else ("", [])

    def _first_path(self, args, keys=("path", "value")) -> str:
        for a in args:
            if a.type in ("pair", "element_value_pair"):
                k = a.child_by_field_name("key")
                if k is not None and self.ff.text(k).strip("'\"") in keys:
                    a = a.child_by_field_name("value")
                else:
                    continue
            if a.type in ("object", "element_value_array_initializer", "array") and a.named_child_count:
                return self._first_path(a.named_children, keys)
            s = self.ff.string(a)
            if s is not None:
                return s
        return ""

    def _nest(self, dec, node):
        name, args = self._call(dec)
        if name not in _NEST:
            return None
        prefix = ""
        for cd in self._class_decorators(node):
            cname, cargs = self._call(cd)
            if cname == "Controller":
                prefix = self._first_path(cargs)
        return name.upper(), _slash(prefix, self._first_path(args))

    def _spring(self, dec, node):
        name, args = self._call(dec)
        if name not in _SPRING:
            return None
        method = _SPRING[name]
        if method is None:
            m = re.search(r"RequestMethod\.([A-Z]+)", self.ff.text(dec))
            method = m.group(1) if m else "ANY"
        prefix = ""
        for cd in self._class_decorators(node):
            cname, cargs = self._call(cd)
            if cname == "RequestMapping":
                prefix = self._first_path(cargs)
        return method, _slash(prefix, self._first_path(args))

    # -- Go -----------------------------------------------------------------------------------------
    def _go(self) -> None:
        groups: dict[str, tuple[str, str]] = {}
        for caps in self.ff.matches:
            if "group.name" in caps:
                path = self.ff.string(caps["group.path"][0])
                if path is not None:
                    groups[self.ff.text(caps["group.name"][0])] = (self.ff.text(caps["group.object"][0]), path)

        def prefix(name: str, depth: int = 0) -> str:
            if name not in groups or depth > 8:
                return ""
            parent, path = groups[name]
            return join(prefix(parent, depth + 1), path)

        for caps in self.ff.matches:
            if "route" not in caps:
                continue
            args = [a for a in caps["route.args"][0].named_children if a.type != "comment"]
            pattern = self.ff.string(args[0]) if len(args) >= 2 else None
            m = _GO_PATH.match(pattern or "")
            if m is None or args[1].type not in ("identifier", "selector_expression", "func_literal",
                                                 "call_expression"):
                continue
            verb = self.ff.text(caps["route.verb"][0])
            method = m.group(1) or ("ANY" if verb.startswith("Handle") or verb == "Any" else verb.upper())
            obj = caps["route.object"][0]
            url = join(prefix(self.ff.text(obj)), m.group(2)) if obj.type == "identifier" else m.group(2)
            self.emit(method, url, f"{method} {url}", (), caps["route"][0],
                      self._handler_anchor(args[1]), self.ff.text(args[1]))

    # -- JavaScript / TypeScript ------------------------------------------------------------------
    def _js(self) -> None:
        ff = self.ff
        for caps in ff.matches:
            if "export.default" in caps:
                self.defaults.add(ff.text(caps["export.default"][0]))
            elif "import.source" in caps:
                mod = self._resolve_module(ff.string(caps["import.source"][0]))
                if mod is None:
                    continue
                if "import.default" in caps:
                    self.imports[ff.text(caps["import.default"][0])] = f"{mod}:default"
                elif "import.name" in caps:
                    local = caps.get("import.alias", caps["import.name"])[0]
                    self.imports[ff.text(local)] = f"{mod}:{ff.text(caps['import.name'][0])}"
        for caps in ff.matches:
            if "router.value" in caps:
                self._router(caps)
        for caps in ff.matches:
            if "mount" in caps:
                self._mount(caps)
            elif "route" in caps:
                self._js_route(caps)

    def _resolve_module(self, source: str | None) -> str | None:
        if not source or not source.startswith("."):
            return None  # a package, not a file of this repository
        return js_module(posixpath.normpath(posixpath.join(posixpath.dirname(self.ff.path), source)))

    def _chain_base(self, node):
        """``Router()`` in ``Router().use(a).use(b)``."""
        while node.type == "call_expression":
            f = node.child_by_field_name("function")
            if f is None or f.type != "member_expression" or \
                    self.ff.text(f.child_by_field_name("property")) != "use":
                break
            node = f.child_by_field_name("object")
        return node

    def _router(self, caps) -> None:
        ff, value = self.ff, caps["router.value"][0]
        base = self._chain_base(value)
        if base.type not in ("call_expression", "new_expression"):
            return
        callee = base.child_by_field_name("function") or base.child_by_field_name("constructor")
        kind = ff.text(callee) if callee is not None else ""
        name = ff.text(caps["router.name"][0]) if "router.name" in caps else "default"
        if kind in _JS_APPS:
            self.routers[name] = None
            return
        if kind not in _JS_ROUTERS and kind.rsplit(".", 1)[-1] != "Router":
            return
        prefix, literal = "", True
        args = base.child_by_field_name("arguments")
        opts = args.named_children[0] if args is not None and args.named_child_count else None
        if opts is not None and opts.type == "object":
            for pair in opts.named_children:
                k = pair.child_by_field_name("key") if pair.type == "pair" else None
                if k is not None and ff.text(k).strip("'\"") == "prefix":
                    v = pair.child_by_field_name("value")
                    s = ff.string(v)
                    prefix, literal = (s, True) if s is not None else (ff.text(v), False)
        rid = f"{self.module}:{'default' if name in self.defaults else name}"
        self.routers[name] = (rid, prefix, literal)
        line = value.start_point[0]
        self.out.append(Fact(
            key=f"{ROUTER}:{rid}", kind=ROUTER, subject=f"{kind} {name}", value=prefix, path=ff.path,
            line=line + 1, text=ff.src.lines[line], purpose="",
            attrs=(("literal", "true" if literal else "false"),)))

    def resolve(self, node) -> str | None:
        """Router id of an expression: a local router, an imported one, ``require('./x')``,
        ``router.routes()`` (koa), or a ``Router().use(...)`` chain; None for an app or unknown."""
        ff = self.ff
        if node.type == "identifier":
            name = ff.text(node)
            if name in self.routers:
                r = self.routers[name]
                return r[0] if r is not None else None
            return self.imports.get(name)
        if node.type == "call_expression":
            f = node.child_by_field_name("function")
            args = node.child_by_field_name("arguments")
            if f is not None and f.type == "identifier" and ff.text(f) == "require" and args.named_child_count:
                mod = self._resolve_module(ff.string(args.named_children[0]))
                return f"{mod}:default" if mod else None
            if f is not None and f.type == "member_expression" and \
                    ff.text(f.child_by_field_name("property")) in ("routes", "middleware"):
                return self.resolve(f.child_by_field_name("object"))
            top = node
            while top.parent is not None and top.parent.type == "member_expression" \
                    and top.parent.parent is not None and top.parent.parent.type == "call_expression":
                top = top.parent.parent
            owner = top.parent
            if owner is not None and owner.type == "variable_declarator":
                return self.resolve(owner.child_by_field_name("name"))
            if owner is not None and owner.type == "export_statement":
                r = self.routers.get("default")
                return r[0] if r else None
        return None

    def _mount(self, caps) -> None:
        ff = self.ff
        args = [a for a in caps["mount.args"][0].named_children if a.type != "comment"]
        if not args:
            return
        prefix_node = args[0] if args[0].type in ff.lang.strings else None
        prefix, literal = ("", True)
        if prefix_node is not None:
            s = ff.string(prefix_node)
            prefix, literal = (s, True) if s is not None else (ff.text(prefix_node), False)
        parent = self.resolve(caps["mount.object"][0]) or ""
        call = caps["mount"][0]
        for a in args[1:] if prefix_node is not None else args:
            child = self.resolve(a)
            if child is None:
                continue
            n = sum(1 for x in self.out if x.kind == MOUNT) + 1
            line = call.start_point[0]
            self.out.append(Fact(
                key=f"{MOUNT}:{ff.path}:{child}#{n}", kind=MOUNT, subject=f"mount of {child}",
                value=prefix, path=ff.path, line=line + 1, text=ff.src.lines[line].strip(), purpose="",
                attrs=(("child", child), ("given", "true" if prefix_node is not None else "false"),
                       ("literal", "true" if literal else "false"), ("mode", "prepend"),
                       ("parent", parent))))

    def _js_route(self, caps) -> None:
        ff = self.ff
        args = [a for a in caps["route.args"][0].named_children if a.type != "comment"]
        obj = caps["route.object"][0]
        url = ff.string(args[0]) if len(args) >= 2 else None
        if url is None:  # app.route('/x').get(h).post(h2)
            o = obj
            while o.type == "call_expression" and ff.text(o.child_by_field_name("function")).rsplit(
                    ".", 1)[-1] in ("get", "post", "put", "delete", "patch", "all", "head", "options"):
                o = o.child_by_field_name("function").child_by_field_name("object")
            f = o.child_by_field_name("function") if o.type == "call_expression" else None
            if f is None or f.type != "member_expression" or \
                    ff.text(f.child_by_field_name("property")) != "route" or not args:
                return
            rargs = o.child_by_field_name("arguments").named_children
            url, obj = (ff.string(rargs[0]) if rargs else None), f.child_by_field_name("object")
        if url is None or not (url.startswith("/") or url == "*"):
            return
        rid = self.resolve(obj)
        if rid is None and obj.type == "identifier" and ff.text(obj) not in self.routers \
                and not _JS_OBJECT.match(ff.text(obj)):
            return
        handler = args[-1]
        if handler.type not in ("identifier", "member_expression", "arrow_function",
                                "function_expression", "call_expression", "function"):
            return
        verb = ff.text(caps["route.verb"][0])
        method = {"del": "DELETE", "all": "ALL"}.get(verb, verb.upper())
        value, attrs = f"{method} {url}", ()
        if rid is not None:
            attrs = (("path", url), ("router", rid))
            local = self.routers.get(ff.text(obj)) if obj.type == "identifier" else None
            if local is not None and not local[2]:
                attrs += (("relative", "true"),)
            elif local is not None:
                value = f"{method} {join(local[1], url)}"
        self.emit(method, url, value, attrs, caps["route"][0], self._handler_anchor(handler),
                  ff.text(handler).split("\n", 1)[0])


_TEST_DIRS = {"test", "tests", "__tests__", "spec", "specs", "e2e", "testdata"}
_TEST_FILE = re.compile(r"(\.(test|spec)\.[jt]sx?$|_test\.go$|Tests?\.java$)")


def _is_test(path: str) -> bool:
    parts = path.split("/")
    return bool(_TEST_DIRS.intersection(parts[:-1])) or bool(_TEST_FILE.search(parts[-1]))


def _key(node) -> tuple:
    return (node.start_byte, node.end_byte, node.type)

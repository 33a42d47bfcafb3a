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
* axum (Rust): ``.route("/todos/{id}", patch(update).delete(remove))`` -- a route per method of
  the chain (``get``, ``post``, ... ``any``; ``routing::get`` and ``get_service`` alike), under
  the ``.nest("/api", ...)`` prefixes of the same file: a router built in the nest's argument, or
  by a function of the file the nest calls (``.nest("/api", api_routes())``, mounted once);
  ``.merge(r)`` is a nest without a prefix.  A router a function builds that no nest of the file
  mounts is a router of its own (``crate.api:router``), and ``.nest("/api", api::router())`` or
  ``.merge(users::router())`` of another file's function mounts it: the ledger composes the path.
* Spring (Java and Kotlin): ``@RequestMapping`` on the class, ``@GetMapping``/``@PostMapping``/...,
  ``@RequestMapping(value=..., method=RequestMethod.X)`` on the method.

Files under test directories (``test/``, ``__tests__/``, ...) and test files (``*.test.ts``,
``*_test.go``, ``*Test.java``, Kotlin's ``src/test/kotlin/``) state no routes: the apps they build are fixtures.

A route whose handler is a function of the same file is a fact about that function (anchor, key
suffix ``route``), so it follows the handler through renames and moves.  An inline or imported
handler has no anchor there: the route is keyed ``route:<path>:<METHOD> <path as written>``.
"""

from __future__ import annotations

import re

from repomem.core.model import MOUNT, ROUTE, ROUTER, Fact
from repomem.core.paths import is_test
from repomem.core.routes import join
from repomem.miners._pysource import MAX_TEXT_LINES, _words
from repomem.miners.lang.jsroutes import JsRoutes, js_module

ROUTE_PURPOSE_SUFFIX = " (HTTP endpoint / API route / URL path)"  # as in miners/python.py
_NEST = {"Get", "Post", "Put", "Delete", "Patch", "Options", "Head", "All"}
_SPRING = {"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT",
           "DeleteMapping": "DELETE", "PatchMapping": "PATCH", "RequestMapping": None}
# Calls every handler makes: they say nothing about what this one does.
_GENERIC_CALLS = {"json", "send", "status", "next", "render", "redirect", "end", "set", "get",
                  "sendStatus", "sendFile", "write", "Write", "Fprintf", "Printf", "JSON", "String",
                  "parseInt", "Number", "require", "then", "catch", "error", "log",
                  "Error", "HttpException", "Promise", "resolve", "reject", "push", "map"}
_AXUM = {"get", "post", "put", "delete", "patch", "head", "options", "trace", "any"}
_GO_PATH = re.compile(r"^(?:([A-Z]+)\s+)?(/\S*)$")


def _slash(*parts: str) -> str:
    """Nest and Spring paths: segments joined under one leading slash."""
    segs = [p.strip("/") for p in parts if p and p.strip("/")]
    return "/" + "/".join(segs)


class Routes(JsRoutes):
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
        if is_test(self.ff.path):  # apps built inside tests are fixtures, not the project's API
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
        elif fam in ("java", "kotlin"):
            self._decorated(self._spring)
        elif fam == "rust":
            self._axum()
        return self.out

    # -- emitting -------------------------------------------------------------------------------
    def _handler_anchor(self, node) -> str | None:
        if node is None or node.type not in ("identifier", "member_expression", "selector_expression",
                                             "scoped_identifier"):
            return None
        text = self.ff.text(node).replace("::", ".")  # handlers::list_todos
        exact = f"{self.ff.path}::{text.removeprefix('this.')}"
        if exact in self.funcs:
            return exact
        last = text.rsplit(".", 1)[-1]
        hits = [a for a, f in self.funcs.items() if f.value == last]
        return hits[0] if len(hits) == 1 else None

    def _calls(self, handler) -> list[str]:
        """Names of the functions an inline handler calls (``createUser``, ``login``): what it
        does, for a route whose handler has no name of its own."""
        if handler is None or handler.type not in ("arrow_function", "function_expression",
                                                   "function", "func_literal"):
            return []
        names: list[str] = []
        stack = [handler]
        while stack and len(names) < 6:
            n = stack.pop()
            if n.type == "call_expression":
                f = n.child_by_field_name("function")
                name = self.ff.text(f).rsplit(".", 1)[-1] if f is not None else ""
                if name.isidentifier() and name not in _GENERIC_CALLS and name not in names:
                    names.append(name)
            stack.extend(reversed(n.named_children))
        return names

    def emit(self, method: str, url: str, value: str, attrs, node, anchor, handler: str,
             handler_node=None) -> None:
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
            calls = self._calls(handler_node)
            if calls:
                purpose += f" - calls {', '.join(' '.join(_words(c)) for c in calls)}"
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
        if dec.type == "annotation" and ff.lang.family == "kotlin":
            return _kotlin_annotation(ff, dec)
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
            if a.type == "value_argument":  # Kotlin: "/x", or path = ["/x"]
                named = a.named_children
                if not named or len(named) == 2 and self.ff.text(named[0]) not in keys:
                    continue
                a = named[-1]
                if a.type == "call_expression" and self.ff.text(a.named_children[0]) == "arrayOf":
                    a = a.named_children[-1]  # its value_arguments
            elif a.type in ("pair", "element_value_pair"):
                k = a.child_by_field_name("key")
                if k is not None and self.ff.text(k).strip("'\"") in keys:
                    a = a.child_by_field_name("value")
                else:
                    continue
            if a.type in ("object", "element_value_array_initializer", "array", "collection_literal",
                          "value_arguments") and a.named_child_count:
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

        def root(name: str) -> str:
            for _ in range(8):
                if name not in groups:
                    break
                name = groups[name][0]
            return name

        package, routers = go_package(self.ff.path), set[str]()
        imports: dict[str, str] | None = None

        def router_of(node, name: str) -> str | None:
            """The router id of the routes a function registers on its parameter NAME (a group
            another function, maybe of another package, passes it): ``users:UsersRegister``."""
            fn = node
            while fn is not None and fn.type not in ("function_declaration", "method_declaration", "func_literal"):
                fn = fn.parent
            if fn is None or fn.type != "function_declaration" or root(name) not in _go_parameters(self.ff, fn):
                return None
            rid = f"{package}:{self.ff.text(fn.child_by_field_name('name'))}"
            self._router_fact(rid, f"routes of {rid}", fn, routers)
            return rid

        for caps in self.ff.matches:
            if "mount.path" in caps:  # users.UsersRegister(v1.Group("/users"))
                given = self.ff.string(caps["mount.path"][0])
                if given is None:
                    continue
                obj = self.ff.text(caps["mount.object"][0])
                if imports is None:
                    imports = _go_imports(self.ff.src.data)
                pkg = caps.get("mount.package")
                child = (f"{imports.get(self.ff.text(pkg[0]), self.ff.text(pkg[0]))}" if pkg else package) \
                    + ":" + self.ff.text(caps["mount.function"][0])
                parent = router_of(caps["mount"][0], obj) or ""
                self._mount_fact(child, join(prefix(obj), given), parent, caps["mount"][0])
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
            rid = router_of(caps["route"][0], self.ff.text(obj)) if obj.type == "identifier" else None
            self.emit(method, url, f"{method} {url}", (("path", url), ("router", rid)) if rid else (), caps["route"][0],
                      self._handler_anchor(args[1]), self.ff.text(args[1]), args[1])


    # -- axum ---------------------------------------------------------------------------------------
    def _axum(self) -> None:
        # .nest("/api", r) and .merge(r) (a nest without a prefix), by their router argument
        nests = {_key(caps["nest.router"][0]): caps for caps in self.ff.matches if "nest.router" in caps}
        nests.update({_key(caps["merge.router"][0]): {"nest": caps["merge"], "nest.router": caps["merge.router"]}
                      for caps in self.ff.matches if "merge.router" in caps})
        module = rust_module(self.ff.path)
        uses = _rust_uses(self.ff.src.data) if nests else {}
        names = {f.value for f in self.funcs.values()} if nests else set()
        routers: set[str] = set()
        for caps in self.ff.matches:
            if "route.path" not in caps:
                continue
            url = self.ff.string(caps["route.path"][0])
            if url is None or not url.startswith("/"):
                continue
            prefixes, fn = self._nested(caps["route"][0], nests) if nests else ([], _function_of(caps["route"][0]))
            for prefix in prefixes[::-1]:
                url = join(prefix, url)
            attrs: tuple = ()
            if fn is not None:  # built by a function another file may nest: its router's routes
                rid = self._rust_router(module, fn, routers)
                attrs = (("path", url), ("router", rid))
            for method, handler in _method_chain(self.ff, caps["route.args"][0]):
                # at the .route( of a chain that may start lines above (Router::new())
                self.emit(method, url, f"{method} {url}", attrs, caps["route.verb"][0], self._handler_anchor(handler),
                          self.ff.text(handler), handler)
        for caps in nests.values():  # .nest("/api", api::router()) of a function of another file
            called = caps["nest.router"][0]
            path = _called_path(self.ff, called)
            given = self._nest_prefix(caps)
            if path is None or given is None or ("::" not in path and path in names):
                continue  # a function of this file: nested above
            prefixes, fn = self._nested(caps["nest"][0], nests)
            for outer in prefixes[::-1]:
                given = join(outer, given)
            parent = self._rust_router(module, fn, routers) if fn is not None else ""
            self._mount_fact(_rust_target(module, path, uses), given, parent, caps["nest"][0])

    def _rust_router(self, module: str, fn, routers: set[str]) -> str:
        """The router id of the routes a function builds (``crate.api:router``), its router fact
        stated once."""
        name = self.ff.text(fn.child_by_field_name("name"))
        rid = f"{module}:{name}"
        self._router_fact(rid, f"router of {name}", fn, routers)
        return rid

    # -- wiring facts the ledger composes across files (core/ledger.WiringTable) -------------------
    def _router_fact(self, rid: str, subject: str, fn, stated: set[str]) -> None:
        """The router a function's parameter or result is (no prefix of its own), once a file."""
        if rid in stated:
            return
        stated.add(rid)
        line = fn.start_point[0]
        self.out.append(Fact(
            key=f"{ROUTER}:{rid}", kind=ROUTER, subject=subject, value="", path=self.ff.path,
            line=line + 1, text=self.ff.src.lines[line].strip(), purpose="", attrs=(("literal", "true"),)))

    def _mount_fact(self, child: str, prefix: str, parent: str, call) -> None:
        """CALL mounts router CHILD under the literal PREFIX (of router PARENT, "" for the app)."""
        n = sum(1 for x in self.out if x.kind == MOUNT) + 1
        line = call.start_point[0]
        self.out.append(Fact(
            key=f"{MOUNT}:{self.ff.path}:{child}#{n}", kind=MOUNT, subject=f"mount of {child}",
            value=prefix, path=self.ff.path, line=line + 1, text=self.ff.src.lines[line].strip(), purpose="",
            attrs=(("child", child), ("given", "true"), ("literal", "true"), ("mode", "prepend"),
                   ("parent", parent))))

    def _nest_prefix(self, caps: dict) -> str | None:
        return self.ff.string(caps["nest.path"][0]) if "nest.path" in caps else ""

    def _nested(self, node, nests: dict) -> tuple[list[str], object]:
        """(the ``.nest`` prefixes a router built at NODE is mounted under in this file,
        outermost first; the function that builds the outermost of them when no nest of the file
        mounts it, else None): the nests whose router argument holds it, and for one built in a
        function of the file, the one nest that mounts that function's router
        (``.nest("/api", api_routes())``)."""
        prefixes: list[str] = []
        for _ in range(8):  # nests of nests, as deep as anyone writes them
            p = node
            while p is not None and _key(p) not in nests and p.type != "function_item":
                p = p.parent
            if p is None:
                return prefixes[::-1], None
            if p.type == "function_item":
                name = self.ff.text(p.child_by_field_name("name"))
                by = [c for c in nests.values() if _called(self.ff, c["nest.router"][0]) == name]
                if len(by) != 1:
                    return prefixes[::-1], p if not by else None
                caps = by[0]
            else:
                caps = nests[_key(p)]
            prefix = self._nest_prefix(caps)
            if prefix is None:
                break
            prefixes.append(prefix)
            node = caps["nest"][0]
        return prefixes[::-1], None


def go_package(path: str) -> str:
    """A Go file's package as its folder, dotted (``users``, ``internal.api``; ``_`` at the root)."""
    return path.rpartition("/")[0].replace("/", ".") or "_"


_GO_IMPORT = re.compile(rb'^\s*(?:import\s+)?(?:(\w+)\s+)?"([^"\n]+)"', re.M)


def _go_imports(data: bytes) -> dict[str, str]:
    """Local name -> the imported package's folder name: ``users`` for
    ``"github.com/x/app/users"``, ``v1`` for ``api "github.com/x/app/api/v1"`` under ``api``."""
    out = {}
    for m in _GO_IMPORT.finditer(data):
        seg = m.group(2).decode("utf-8", "replace").rsplit("/", 1)[-1]
        out[(m.group(1) or m.group(2).rsplit(b"/", 1)[-1]).decode("utf-8", "replace")] = seg
    return out


def _go_parameters(ff, fn) -> set[str]:
    params = fn.child_by_field_name("parameters")
    return {ff.text(n) for p in (params.named_children if params is not None else ())
            if p.type == "parameter_declaration" for n in p.children_by_field_name("name")}


def _function_of(node):
    while node is not None and node.type != "function_item":
        node = node.parent
    return node


def rust_module(path: str) -> str:
    """A Rust file's module as a dotted id under its crate: ``src/main.rs`` and ``src/lib.rs``
    are ``crate``, ``src/api/mod.rs`` ``crate.api``, ``web/src/api/users.rs``
    ``web.crate.api.users`` (the crate's folder first, so two crates' modules differ)."""
    head, sep, rest = ("/" + path).rpartition("/src/")
    if not sep:
        head, rest = "", path
    parts = rest.removesuffix(".rs").split("/")
    if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("main", "lib")):
        parts = parts[:-1]
    return ".".join([*[p for p in head.split("/") if p], "crate", *parts])


_USE = re.compile(rb"\buse\s+((?:crate|self|super)(?:::\w+)*)::(?:(\w+)(?:\s+as\s+(\w+))?|\{([^}]*)\})\s*;")


def _rust_uses(data: bytes) -> dict[str, str]:
    """Local name -> path of the ``use crate::routes::api;`` / ``use super::{a, b as c};`` of a file."""
    out: dict[str, str] = {}
    for m in _USE.finditer(data):
        base = m.group(1).decode()
        items = [(m.group(2), m.group(3))] if m.group(2) else [
            (w[0], w[-1]) for w in (i.split() for i in m.group(4).decode().split(",")) if w and w[0].isidentifier()]
        for name, alias in items:
            name = name.decode() if isinstance(name, bytes) else name
            alias = alias.decode() if isinstance(alias, bytes) else alias
            out[alias or name] = f"{base}::{name}"
    return out


def _rust_target(module: str, path: str, uses: dict[str, str]) -> str:
    """The router id a nest's call names: ``api::router`` in ``crate`` -> ``crate.api:router``."""
    segs = path.split("::")
    if segs[0] in uses:
        segs = uses[segs[0]].split("::") + segs[1:]
    crate = module.split(".crate", 1)[0] + ".crate" if ".crate" in module else "crate"
    mod = module.split(".")
    if segs[0] == "crate":
        mod, segs = crate.split("."), segs[1:]
    while segs and segs[0] in ("self", "super"):
        if segs.pop(0) == "super" and len(mod) > 1:
            mod = mod[:-1]
    return ".".join([*mod, *segs[:-1]]) + ":" + segs[-1]


def _called_path(ff, node) -> str | None:
    """The path of the function a router argument calls (``api::router()``, ``routes()``), else None."""
    if node.type != "call_expression":
        return None
    f = node.child_by_field_name("function")
    return ff.text(f) if f is not None and f.type in ("identifier", "scoped_identifier") else None


def _called(ff, node) -> str | None:
    """The name of the function a router argument calls (``api_routes()``), else None."""
    if node.type != "call_expression":
        return None
    f = node.child_by_field_name("function")
    return ff.text(f) if f is not None and f.type == "identifier" else None


def _method_chain(ff, node) -> list[tuple[str, object]]:
    """(METHOD, handler node) of ``get(a).post(b)``, in the order written."""
    out = []
    while node is not None and node.type == "call_expression":
        f, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        handlers = [a for a in args.named_children if a.type not in ff.lang.comments] if args is not None else []
        if f is None or len(handlers) != 1:
            break
        if f.type == "field_expression":  # ....delete(h): the rest of the chain is its value
            name, node = ff.text(f.child_by_field_name("field")), f.child_by_field_name("value")
        elif f.type in ("identifier", "scoped_identifier"):  # get(h), routing::get(h)
            name, node = ff.text(f).rsplit("::", 1)[-1], None
        else:
            break
        name = name.removesuffix("_service")
        if name in _AXUM:
            out.append((name.upper(), handlers[0]))
    return out[::-1]


def _kotlin_annotation(ff, dec) -> tuple[str, list]:
    """(name, value_argument nodes) of a Kotlin annotation: ``@RestController`` is a type,
    ``@GetMapping("/x")`` a constructor call; the simple name of a qualified one."""
    inner = dec.named_children[-1] if dec.named_child_count else None
    if inner is None:
        return "", []
    if inner.type == "constructor_invocation":
        args = next((c for c in inner.named_children if c.type == "value_arguments"), None)
        return ff.text(inner.named_children[0]).rsplit(".", 1)[-1], list(args.named_children) if args else []
    return ff.text(inner).rsplit(".", 1)[-1], []


def _key(node) -> tuple:
    return (node.start_byte, node.end_byte, node.type)

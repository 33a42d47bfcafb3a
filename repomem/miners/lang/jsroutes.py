"""JavaScript/TypeScript router wiring and route registrations (Express, Koa, Fastify): the
part of :class:`repomem.miners.lang.routes.Routes` that knows JS modules, imports and exports.
Rules in routes.py's docstring and docs/facts.md."""

from __future__ import annotations

import posixpath
import re
from typing import Any, Callable

from repomem.core.model import CONFIG, MOUNT, ROUTER, Fact
from repomem.core.routes import join
from repomem.miners._pysettings import _expression
from repomem.miners._pysource import MAX_TEXT_LINES, _words

_JS_ROUTERS = {"Router", "express.Router", "KoaRouter"}
_JS_APPS = {"express", "fastify", "Fastify", "Koa", "polka", "Hono"}
# Receivers of .get/.post that are taken for an app or router without having seen it created
# (an app passed in as a parameter); anything else needs a router or app known to the file.
_JS_OBJECT = re.compile(r"^(app|router|api|server|fastify|routes?|\w*[Rr]outer|\w*[Aa]pp)$")
_JS_EXT = re.compile(r"\.(jsx?|mjs|cjs|tsx?|mts|cts)$")


def js_module(path: str) -> str:
    mod = _JS_EXT.sub("", path).replace("/", ".")
    return mod[: -len(".index")] if mod.endswith(".index") else mod


class JsRoutes:
    """Mixed into Routes: needs ``ff``, ``module``, ``imports``, ``routers``, ``defaults``,
    ``out``, ``emit`` and ``_handler_anchor``."""

    ff: Any
    module: str
    imports: dict[str, str]
    routers: dict[str, Any]
    defaults: set[str]
    out: list[Fact]
    emit: Callable[..., None]
    _handler_anchor: Callable[[Any], str | None]

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
        settings: dict[str, Fact] = {}
        for caps in ff.matches:
            if "mount" in caps:
                self._mount(caps)
            elif "route" in caps:
                self._js_route(caps)
            elif "setting" in caps:
                fact = self._setting(caps)
                if fact is not None:  # set twice: the later statement is what the app runs with
                    settings[fact.key] = fact
            elif "middleware" in caps or "errorware" in caps:
                fact = self._middleware(caps, settings) if "middleware" in caps \
                    else self._error_handler(caps, settings)
                if fact is not None:
                    settings[fact.key] = fact
        self.out.extend(settings.values())

    def _setting(self, caps) -> Fact | None:
        """``app.set('view engine', 'pug')``, ``app.enable('trust proxy')``: a setting of the
        app, ``config:<path>:app.<name>`` -- of an app the file creates (``const app =
        express()``) or one called ``app``, and ``this.set(...)`` in a function assigned to a
        member of ``app`` (Express's own ``app.defaultConfiguration``).  Only a statement its
        block always runs: one under an ``if`` is a case, not the setting."""
        ff, stmt = self.ff, caps["setting"][0]
        name = ff.string(caps["setting.name"][0])
        app = self._app_statement(stmt, caps["setting.object"][0])
        if not name or app is None:
            return None
        verb = ff.text(caps["setting.verb"][0])
        attrs: tuple[tuple[str, str], ...] = ()
        if verb != "set":
            value = "true" if verb == "enable" else "false"
        else:
            args = stmt.named_children[0].child_by_field_name("arguments")
            v = args.named_children[1] if args is not None and args.named_child_count >= 2 else None
            if v is None or v.type in ff.lang.functions or v.type == "spread_element":
                return None  # app.set('x') reads a setting; a function or a spread is no value
            literal = ff.literal(v)
            if literal is None:
                got = ff.env_default(v)
                said = (got[1], (("env", got[0]),)) if got else _expression(ff.src, v)
                if said is None:
                    return None
                literal, attrs = said
            value = literal
        first = stmt.start_point[0]
        return Fact(key=f"{CONFIG}:{ff.path}:{app}.{name}", kind=CONFIG,
                    subject=f"{app} setting '{name}' in {ff.path}", value=value, attrs=attrs,
                    path=ff.path, line=first + 1,
                    text=ff.src.rows(first, min(stmt.end_point[0], first + MAX_TEXT_LINES - 1)),
                    purpose=f"{' '.join(_words(name.replace(' ', '_')))} (app setting)")

    def _app_statement(self, stmt, obj) -> str | None:
        """The app a statement configures (``app`` for ``this`` in Express's own methods), when
        its block always runs it; else None."""
        ff, block = self.ff, stmt.parent
        if block is None or block.type not in ("program", "statement_block"):
            return None
        if block.type == "statement_block" and (block.parent is None
                                                or block.parent.type not in ff.lang.functions):
            return None
        if obj.type == "this":
            owner = block.parent.parent if block.type == "statement_block" else None
            left = owner.child_by_field_name("left") if owner is not None \
                and owner.type == "assignment_expression" else None
            target = left.child_by_field_name("object") if left is not None \
                and left.type == "member_expression" else None
            return "app" if target is not None and ff.text(target) == "app" else None
        app = ff.text(obj)
        return app if app == "app" or (app in self.routers and self.routers[app] is None) else None

    def _middleware(self, caps, seen: dict) -> Fact | None:
        """``app.use(cors())``, ``app.use(bodyParser.json())``: a middleware the app runs, keyed by
        what makes it (``config:src/main.ts:app.use.bodyParser.json``; a second of the same
        maker in the file ``...#2``), its call as written."""
        ff, stmt, call = self.ff, caps["middleware"][0], caps["middleware.call"][0]
        app = self._app_statement(stmt, caps["middleware.object"][0])
        maker = call.child_by_field_name("function")
        if app is None or maker is None or maker.type not in ("identifier", "member_expression"):
            return None
        said = _expression(ff.src, call)
        if said is None:
            return None
        return self._used(stmt, f"{app}.use.{ff.text(maker)}", seen,
                          f"{app} middleware {ff.text(maker)} in {ff.path}", said[0],
                          f"{' '.join(_words(ff.text(maker).replace('.', '_')))} (middleware)")

    def _used(self, stmt, name: str, seen: dict, subject: str, value: str, purpose: str) -> Fact:
        """The fact of what ``app.use(...)`` in STMT adds, keyed by NAME (a second of one name in
        the file ``...#2``), its lines the statement's."""
        ff = self.ff
        base = f"{CONFIG}:{ff.path}:{name}"
        key, n = base, 1
        while key in seen:
            n += 1
            key = f"{base}#{n}"
        first = stmt.start_point[0]
        return Fact(key=key, kind=CONFIG, subject=subject, value=value, attrs=(), path=ff.path,
                    line=first + 1, purpose=purpose,
                    text=ff.src.rows(first, min(stmt.end_point[0], first + MAX_TEXT_LINES - 1)))

    def _error_handler(self, caps, seen: dict) -> Fact | None:
        """``app.use((err, req, res, next) => {...})``: the app's error handler, a function of four
        parameters given to ``use`` inline or by the name of one the file declares (Express tells
        an error handler by its arity), keyed ``config:src/main.ts:app.use.error-handler`` (a
        second in the file ``...#2``); its value is its parameter list as written (after its
        name, when it has one), its lines show what it does."""
        ff, stmt, handler = self.ff, caps["errorware"][0], caps["errorware.handler"][0]
        app = self._app_statement(stmt, caps["errorware.object"][0])
        if app is None:
            return None
        name = ""
        if handler.type == "identifier":  # app.use(error): function error(err, req, res, next)
            name = ff.text(handler)
            handler = next((n for n in stmt.parent.children if n.type == "function_declaration"
                            and ff.text(n.child_by_field_name("name")) == name), None)
            if handler is None:
                return None
        params = handler.child_by_field_name("parameters")
        if params is None or len([p for p in params.named_children if p.type != "comment"]) != 4:
            return None
        # written over lines, read on one: "(\n  err,\n  next,\n)" is "(err, next)"
        said = " ".join(ff.text(params).split())[1:-1].strip().rstrip(",").strip()
        return self._used(stmt, f"{app}.use.error-handler", seen, f"{app} error handler in {ff.path}",
                          f"{name}({said})",
                          "error handler (middleware): handles the errors the app's routes raise")

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
        if url is not None and not url.startswith("/") and len(args) >= 3:
            url = ff.string(args[1])  # koa-router's named route: router.get('user', '/users/:id', h)
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
        value = f"{method} {url}"
        attrs: tuple[tuple[str, str], ...] = ()
        if rid is not None:
            attrs = (("path", url), ("router", rid))
            local = self.routers.get(ff.text(obj)) if obj.type == "identifier" else None
            if local is not None and not local[2]:
                attrs += (("relative", "true"),)
            elif local is not None:
                value = f"{method} {join(local[1], url)}"
        self.emit(method, url, value, attrs, caps["route"][0], self._handler_anchor(handler),
                  ff.text(handler).split("\n", 1)[0], handler)

"""Route prefixes: routers and blueprints, and where they are mounted.

A route's full path is the decorator's path under its router's prefix (``APIRouter(prefix=...)``,
``Blueprint(..., url_prefix=...)``), under the prefix the router is mounted with
(``include_router(r, prefix=...)`` prepends; ``register_blueprint(bp, url_prefix=...)`` replaces
the blueprint's own, as Flask does), under its parent's.  The miner sees one file, so it states
what the file says and the ledger composes across files (ledger.compose_routes):

* a ``router`` fact per module-level router: key ``router:<module>:<name>``, value its prefix;
* a ``mount`` fact per include/register call: value the prefix given, attrs ``parent``/``child``
  (router ids ``module:name``; a parent that is no router -- the app -- is ``""``), ``mode``
  (``prepend`` or ``override``), ``given`` (a prefix argument was passed);
* routes whose decorator object is a router carry ``router`` (its id) and ``path`` (as written).

Both wiring kinds carry ``literal: "false"`` when the prefix is not a string literal; a route
under such a prefix stays relative and says so (``relative: "true"``).  Router ids are module
paths as the imports spell them (``app.auth:bp``); the ledger also accepts a defining module
that ends with the imported one (a ``src/`` layout).
"""

from __future__ import annotations

from repomem.core.model import MOUNT, ROUTER, Fact
from repomem.core.routes import join

ROUTER_CALLS = {"APIRouter", "Blueprint"}  # mountable: their routes take a prefix from a mount
APP_CALLS = {"FastAPI", "Flask", "Quart", "APIFlask"}  # roots: nothing mounts them
MOUNT_CALLS = {"include_router": ("prefix", "prepend"),
               "register_blueprint": ("url_prefix", "override")}


def module_of(path: str) -> str:
    mod = path[:-3] if path.endswith(".py") else path
    mod = mod.replace("/", ".")
    return mod[: -len(".__init__")] if mod.endswith(".__init__") else mod


class Wiring:
    """One file's routers, imports and mounts, and the router id of a decorator object."""

    def __init__(self, src, root, path: str, string):
        self.src, self.path, self.string = src, path, string
        self.module = module_of(path)
        self.package = self.module if path.endswith("__init__.py") else self.module.rpartition(".")[0]
        self.imports: dict[str, str] = {}  # local name -> "module:name" or "module" (import a.b as c)
        self.routers: dict[str, tuple[str, bool] | None] = {}  # name -> (prefix, literal); None: app
        self.facts: list[Fact] = []
        # Only statements are visited, never expressions (a full walk would cost more than the
        # parse); bodies of functions only when the file mounts something (Flask's create_app).
        mounts = b"include_router" in src.data or b"register_blueprint" in src.data
        for n in _statements(root, nested=mounts):
            if n.type in ("import_from_statement", "import_statement"):
                self._import(n)
        for stmt in root.named_children:  # routers are module-level objects
            asg = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_child_count else None
            if asg is not None and asg.type == "assignment":
                self._router(asg)
        for n in _statements(root, nested=True) if mounts else ():
            if n.type == "expression_statement" and n.named_child_count == 1 \
                    and n.named_children[0].type == "call":
                self._mount(n.named_children[0])

    def _import(self, n) -> None:
        text = self.src.text
        if n.type == "import_statement":
            for item in n.children_by_field_name("name"):
                if item.type == "aliased_import":
                    self.imports[text(item.child_by_field_name("alias"))] = text(item.child_by_field_name("name"))
            return
        mod_node = n.child_by_field_name("module_name")
        mod = text(mod_node)
        if mod_node.type == "relative_import":
            dots = len(mod) - len(mod.lstrip("."))
            base = self.package.split(".") if self.package else []
            base = base[: len(base) - (dots - 1)] if dots > 1 else base
            mod = ".".join([*base, *([mod.lstrip(".")] if mod.lstrip(".") else [])])
        for item in n.children_by_field_name("name"):
            name, alias = item, item
            if item.type == "aliased_import":
                name, alias = item.child_by_field_name("name"), item.child_by_field_name("alias")
            self.imports[text(alias)] = f"{mod}:{text(name)}"

    def _call_name(self, call) -> str:
        f = call.child_by_field_name("function")
        return self.src.text(f).rpartition(".")[2] if f is not None else ""

    def _kw(self, call, name):
        args = call.child_by_field_name("arguments")
        for a in args.named_children if args is not None else ():
            if a.type == "keyword_argument" and self.src.text(a.child_by_field_name("name")) == name:
                return a.child_by_field_name("value")
        return None

    def _prefix(self, node) -> tuple[str, bool]:
        if node is None:
            return "", True
        s = self.string(self.src, node)
        return (s, True) if s is not None else (self.src.text(node), False)

    def _router(self, asg) -> None:
        left, right = asg.child_by_field_name("left"), asg.child_by_field_name("right")
        if left is None or left.type != "identifier" or right is None or right.type != "call":
            return
        kind, name = self._call_name(right), self.src.text(left)
        if kind in APP_CALLS:
            self.routers[name] = None
        elif kind in ROUTER_CALLS:
            prefix, literal = self._prefix(self._kw(right, "prefix" if kind == "APIRouter" else "url_prefix"))
            self.routers[name] = (prefix, literal)
            line = asg.start_point[0]
            self.facts.append(Fact(
                key=f"{ROUTER}:{self.module}:{name}", kind=ROUTER, subject=f"{kind} {name}",
                value=prefix, path=self.path, line=line + 1, text=self.src.lines[line],
                purpose="", attrs=(("literal", "true" if literal else "false"),)))

    def resolve(self, node) -> str | None:
        """The router id of an expression (``bp``, ``items.router``); None for an app or unknown."""
        if node is None:
            return None
        if node.type == "identifier":
            name = self.src.text(node)
            if name in self.routers:
                return f"{self.module}:{name}" if self.routers[name] is not None else None
            target = self.imports.get(name)
            return target if target is not None and ":" in target else None
        if node.type == "attribute":
            obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
            if obj is not None and obj.type == "identifier" and self.src.text(obj) in self.imports:
                target = self.imports[self.src.text(obj)]
                mod = target.replace(":", ".")  # from pkg import items -> module pkg.items
                return f"{mod}:{self.src.text(attr)}"
        return None

    def _mount(self, call) -> None:
        f = call.child_by_field_name("function")
        if f is None or f.type != "attribute":
            return
        spec = MOUNT_CALLS.get(self.src.text(f.child_by_field_name("attribute")))
        args = call.child_by_field_name("arguments")
        pos = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")] \
            if args is not None else []
        if spec is None or not pos:
            return
        child = self.resolve(pos[0])
        if child is None:
            return
        kw_name, mode = spec
        node = self._kw(call, kw_name)
        prefix, literal = self._prefix(node)
        parent = self.resolve(f.child_by_field_name("object")) or ""
        line = call.start_point[0]
        n = sum(1 for x in self.facts if x.kind == MOUNT) + 1
        self.facts.append(Fact(
            key=f"{MOUNT}:{self.path}:{child}#{n}", kind=MOUNT, subject=f"mount of {child}",
            value=prefix, path=self.path, line=line + 1, text=self.src.lines[line].strip(),
            purpose="", attrs=(("child", child), ("given", "true" if node is not None else "false"),
                               ("literal", "true" if literal else "false"), ("mode", mode),
                               ("parent", parent))))

    def route(self, obj_node, method: str, url: str) -> tuple[str, tuple]:
        """(value, extra attrs) of a route whose decorator object is ``obj_node``."""
        rid = self.resolve(obj_node)
        if rid is None:
            return f"{method} {url}", ()
        attrs = [("path", url), ("router", rid)]
        local = self.routers.get(self.src.text(obj_node)) if obj_node.type == "identifier" else None
        if local is not None and rid.startswith(f"{self.module}:"):
            prefix, literal = local
            if not literal:
                return f"{method} {url}", (*attrs, ("relative", "true"))
            return f"{method} {join(prefix, url)}", tuple(attrs)
        return f"{method} {url}", tuple(attrs)


_BODIES = {"function_definition", "class_definition", "decorated_definition", "if_statement",
           "elif_clause", "else_clause", "try_statement", "except_clause", "finally_clause",
           "with_statement", "for_statement", "while_statement", "block"}


def _statements(root, nested: bool):
    """The module's statements, and with ``nested`` those inside compound statements too."""
    stack = list(reversed(root.named_children))
    while stack:
        n = stack.pop()
        if n.type in _BODIES:
            if nested:
                stack.extend(reversed(n.named_children))
            continue
        yield n

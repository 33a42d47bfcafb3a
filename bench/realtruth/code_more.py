"""Questions about Go, Rust and Java code, read with narrow regular expressions: gin routes with
their group prefixes, Spring controller routes with the class's ``@RequestMapping`` prefix, and
Go/Rust functions asked by the purpose their doc comment gives."""

from __future__ import annotations

import re

from bench.realtruth import phrasing as P
from bench.realtruth.functions import PER_REPO_FUNCS, _q, _rank

_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")


def join(prefix: str, path: str) -> str:
    """'/api' + '/users' -> '/api/users'; 'articles/{slug}' -> '/articles/{slug}'."""
    parts = [p.strip("/") for p in (prefix, path) if p and p.strip("/")]
    return "/" + "/".join(parts)


# ------------------------------------------------------------------------------------ gin

_GIN_MOUNT = re.compile(r"(\w+)\.(\w+)\(\s*(\w+)\.Group\(\s*\"([^\"]*)\"\s*\)\s*\)")
_GIN_GROUP = re.compile(r"(\w+)\s*:=\s*(\w+)\.Group\(\s*\"([^\"]*)\"\s*\)")
_GIN_FUNC = re.compile(r"^func (\w+)\(\s*(\w+) \*gin\.RouterGroup\)\s*\{(.*?)^\}", re.M | re.S)
_GIN_ROUTE = re.compile(r"(\w+)\.(GET|POST|PUT|DELETE|PATCH)\(\s*\"([^\"]*)\"\s*,\s*([\w.]+)\s*\)")


def gin_routes(main_path: str):
    """A scan source: ("route", handler) -> 'METHOD /prefix/path' for each handler a register
    function of a package mounts (``users.UsersRegister(v1.Group("/users"))`` in MAIN_PATH with
    ``v1 := r.Group("/api")``); the root path ``/`` of a group is not asked (a trailing slash is
    written either way)."""
    def scan(g, rev):
        main = g.show(rev, main_path)
        if main is None:
            return {}
        groups = {var: prefix for var, _, prefix in _GIN_GROUP.findall(main)}
        mounts = {}
        for pkg, fn, var, path in _GIN_MOUNT.findall(main):
            mounts[(pkg, fn)] = join(groups.get(var, ""), path)
        out: dict = {}
        seen: dict = {}
        for f in g.ls(rev):
            if not f.endswith("routers.go") or "vendor/" in f:
                continue
            pkg = f.split("/")[-2] if "/" in f else ""
            for fn, var, body in _GIN_FUNC.findall(g.show(rev, f) or ""):
                prefix = mounts.get((pkg, fn))
                if prefix is None:
                    continue
                for rv, method, path, handler in _GIN_ROUTE.findall(body):
                    if rv != var or path in ("", "/"):
                        continue
                    fid = ("route", handler.split(".")[-1])
                    seen[fid] = seen.get(fid, 0) + 1
                    out[fid] = (f"{method} {join(prefix, path)}", f)
        return {k: v for k, v in out.items() if seen[k] == 1}
    return scan


# ------------------------------------------------------------------------------------ Spring

_CLASS_MAP = re.compile(r"@RequestMapping\(\s*(?:(?:path|value)\s*=\s*)?\"([^\"]*)\"[^)]*\)\s*"
                        r"(?:@\w+(?:\([^)]*\))?\s*)*public\s+class")
_METHOD_MAP = re.compile(
    r"@(Get|Post|Put|Delete|Patch|Request)Mapping(?:\(([^)]*)\))?\s*"
    r"(?:@\w+(?:\([^)]*\))?\s*)*public\s+[\w<>?,\s\[\]]+?\s(\w+)\s*\(")


def _mapping_path(args: str) -> str:
    m = re.search(r"(?:(?:path|value)\s*=\s*)?\"([^\"]*)\"", args or "")
    return m.group(1) if m else ""


def spring_routes(root: str):
    """A scan source: ("route", method name) -> 'METHOD /path' for each handler of a
    ``@RestController`` under ROOT (class prefix joined with the method's mapping)."""
    def scan(g, rev):
        out: dict = {}
        seen: dict = {}
        for f in g.ls(rev, root):
            if not f.endswith(".java") or "/test/" in f:
                continue
            text = g.show(rev, f) or ""
            if "@RestController" not in text and "@Controller" not in text:
                continue
            cm = _CLASS_MAP.search(text)
            prefix = cm.group(1) if cm else ""
            for kind, args, name in _METHOD_MAP.findall(text):
                if kind == "Request":
                    mm = re.search(r"method\s*=\s*(?:RequestMethod\.)?(GET|POST|PUT|DELETE|PATCH)", args or "")
                    if not mm:
                        continue
                    method = mm.group(1)
                else:
                    method = kind.upper()
                fid = ("route", name)
                seen[fid] = seen.get(fid, 0) + 1
                out[fid] = (f"{method} {join(prefix, _mapping_path(args))}", f)
        return {k: v for k, v in out.items() if seen[k] == 1}
    return scan


# ------------------------------------------------------------------------------------ purpose

_GO_DOC_FUNC = re.compile(r"((?:^//[^\n]*\n)+)^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]", re.M)
_RUST_DOC_FN = re.compile(r"((?:^[ \t]*///[^\n]*\n)+)(?:^[ \t]*#\[[^\n]*\n)*^[ \t]*(?:pub(?:\([^)]*\))?\s+)?"
                          r"(?:async\s+)?fn\s+([a-z_]\w*)", re.M)


def _first_sentence(lines: list[str]) -> str:
    text = " ".join(x.strip() for x in lines if x.strip())
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    return (m.group(1) if m else text).strip()


def go_doc_functions(text: str) -> dict:
    """("def", name) -> the doc comment's first sentence, the leading name dropped ('Bind binds
    ...' -> 'binds ...')."""
    out = {}
    for block, name in _GO_DOC_FUNC.findall(text):
        lines = [re.sub(r"^//\s?", "", x) for x in block.strip("\n").split("\n")]
        doc = _first_sentence(lines)
        words = doc.split()
        if words and words[0] == name:
            doc = " ".join(words[1:])
        elif words[:2] and words[0] in ("A", "An", "The") and len(words) > 1 and words[1] == name:
            doc = ""
        out[("def", name)] = doc
    return out


def rust_doc_functions(text: str) -> dict:
    out = {}
    for block, name in _RUST_DOC_FN.findall(text):
        lines = [re.sub(r"^\s*///\s?", "", x) for x in block.strip("\n").split("\n")]
        out[("def", name)] = _first_sentence(lines)
    return out


def doc_functions(g, repo, proj, dirs, ext, parse, skip=("_test.go", "/tests/", "/examples/")):
    """Functions by purpose: a unique name at HEAD with a unique doc sentence a developer would
    paraphrase."""
    head = g.head.sha
    names: dict = {}
    for d in dirs:
        for path in g.ls(head, d):
            if not path.endswith(ext) or any(s in "/" + path for s in skip) or "vendor/" in path:
                continue
            for fid, doc in parse(g.show(head, path) or "").items():
                names.setdefault(fid[1], []).append((path, doc))
    docs: dict = {}
    for where in names.values():
        for _, doc in where:
            docs[doc] = docs.get(doc, 0) + 1
    out = []
    for name, where in sorted(names.items(), key=lambda kv: _rank(repo, kv[0])):
        if len(where) != 1 or len(name) <= 3:
            continue
        path, doc = where[0]
        para = P.third_person(doc) if doc and docs[doc] == 1 else None
        if not para or name.lower() in para.lower() or P.markers(para):
            continue
        q = P.pick(P.FUNC, repo, name).format(proj=proj, doc=para).replace("the the ", "the ")
        out.append(_q(repo, "function", q, ["function"], name, path,
                      evidence={"commit": head, "path": path, "doc": doc}))
        if len(out) >= PER_REPO_FUNCS:
            break
    return out

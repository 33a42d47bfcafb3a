"""Questions about code: functions asked by purpose (a paraphrase of the docstring's first line),
functions and classes asked by a name they no longer have (renames.py), Flask routes with their
blueprint prefixes, and the
JavaScript/TypeScript facts (JSDoc'd functions, Express routes) that repomem has no miner for yet."""

from __future__ import annotations

import hashlib
import re

from bench.realtruth import extract as X
from bench.realtruth import extract_js as J
from bench.realtruth import phrasing as P
from bench.realtruth.gitread import py_files

PER_REPO_FUNCS = 22
def _q(repo, family, question, kinds, value, path, *, subject=None, stale=(), evidence=None,
       as_of=None, absent=False):
    return {"family": family, "question": question, "kinds": kinds, "subject": subject,
            "value": value, "path": path, "stale_values": sorted(set(stale)), "as_of": as_of,
            "absent": absent, "evidence": evidence or {}}


def _rank(*salt):
    # salted apart from the split's hash of the question text, so a cap does not pick a half
    return hashlib.sha1(repr(("order",) + salt).encode()).hexdigest()


def python_functions(g, repo, proj, dirs):
    """Functions with a usable, unique docstring line whose name is unique at HEAD; a function
    that was renamed has its earlier names as stale values."""
    from bench.realtruth.renames import lineages

    head = g.head.sha
    earlier = {ln.final: ln.chain for ln in lineages(g, dirs)}
    defs = {}
    for path in py_files(g, head, dirs):
        try:
            for fid, doc in X.functions(g.show(head, path) or "").items():
                defs.setdefault(fid[1].split(".")[-1], []).append((fid[1], path, doc))
        except SyntaxError:
            continue
    docs = {}
    for where in defs.values():
        for _, _, doc in where:
            docs[doc] = docs.get(doc, 0) + 1
    out = []
    for name, where in defs.items():
        if len(where) != 1 or name.startswith("__"):
            continue
        qual, path, doc = where[0]
        para = P.third_person(doc) if doc and docs[doc] == 1 else None
        if not para or name.lower() in para.lower() or P.markers(para):
            continue
        q = P.pick(P.FUNC, repo, name).format(proj=proj, doc=para)
        out.append(_q(repo, "function", q, ["function"], name, path, stale=earlier.get(name, ()),
                      evidence={"commit": head, "path": path, "qualname": qual, "docstring": doc}))
    # renamed functions first (their questions test staleness), then the others by hash
    out.sort(key=lambda q: (not q["stale_values"], _rank(repo, q["value"])))
    return out[:PER_REPO_FUNCS]


_IMPORT_BP = re.compile(r"from\s+app\.?(\w*)\s+import\s+bp\s+as\s+(\w+)")


def flask_routes(g, rev):
    """Scan source: every @x.route handler under app/ with the literal url_prefix its blueprint
    is registered with in app/__init__.py.  Keyed by handler name (unique per commit)."""
    init = g.show(rev, "app/__init__.py") or ""
    prefixes = X.blueprint_prefixes(init) if init else {}
    mod_prefix = {m: prefixes.get(var, "") for m, var in _IMPORT_BP.findall(init)}
    out, seen = {}, set()
    for path in g.ls(rev, "app"):
        if not path.endswith(".py"):
            continue
        text = g.show(rev, path) or ""
        if ".route(" not in text:
            continue
        parts = path.split("/")
        pre = mod_prefix.get(parts[1], "") if len(parts) > 2 else ""
        for fid, value in X.routes(text, pre).items():
            key = ("route", fid[1]) if fid[2] == 1 else None
            if key is None:
                continue
            if key in seen:
                out[key] = ("<ambiguous>", path)
            else:
                out[key] = (value, path)
                seen.add(key)
    return out


def js_functions(g, repo, proj, dirs):
    head = g.head.sha
    out, names = [], {}
    for d in dirs:
        for path in g.ls(head, d):
            if path.endswith((".js", ".ts")):
                for fid, doc in J.js_functions(g.show(head, path) or "").items():
                    names.setdefault(fid[1], []).append((path, doc))
    for name, where in sorted(names.items(), key=lambda kv: _rank(repo, kv[0])):
        if len(where) != 1:
            continue
        path, doc = where[0]
        para = P.third_person(doc) if len(name) > 3 else None
        if not para or name.lower() in para.lower() or P.markers(para):
            continue
        q = P.pick(P.FUNC, repo, name).format(proj=proj, doc=para)
        out.append(_q(repo, "function", q, ["function"], name, path,
                      evidence={"commit": head, "path": path, "jsdoc": doc}))
        if len(out) >= PER_REPO_FUNCS:
            break
    return out


_TS_ROUTE = re.compile(r"/\*\*\s*\n\s*\*\s*([^\n@][^\n]*)\n(?:[^*]|\*(?!/))*\*/\s*\n\s*router\."
                       r"(get|post|put|delete|patch)\(\s*['\"]([^'\"]+)['\"]")


def ts_routes(g, repo, proj):
    """Express routers of the TypeScript service: JSDoc purpose -> METHOD /api/path (the '/api'
    prefix read from routes.ts)."""
    head = g.head.sha
    routes_ts = g.show(head, "src/app/routes/routes.ts") or ""
    m = re.search(r"Router\(\)\.use\(\s*['\"]([^'\"]+)['\"]", routes_ts)
    prefix = m.group(1) if m else ""
    out = []
    for path in g.ls(head, "src/app/routes"):
        if not path.endswith(".controller.ts"):
            continue
        for doc, verb, rpath in _TS_ROUTE.findall(g.show(head, path) or ""):
            doc = doc.strip().rstrip(".")
            value = f"{verb.upper()} {prefix.rstrip('/')}{rpath}"
            tpl = P.pick(P.ROUTE_PURPOSE, repo, doc)
            q = tpl.format(proj=proj, doc=doc.lower(), doc_lc=P.third_person(doc) or doc.lower())
            if P.markers(q):
                continue
            out.append(_q(repo, "route", q, ["route"], value, path,
                          evidence={"commit": head, "path": path, "jsdoc": doc, "prefix": prefix}))
    return out


def asof_code(g, questions, found_at, per_repo=8):
    """The same code questions asked about a past day: for each current question, the earliest
    of a few days spread over the history (halfway, 70%, 85% of the first-parent chain) on which
    ``found_at(sha, question)`` gives the same answer at both edges of the day (day start and
    end, effective and raw committer time).  FOUND_AT returns the value the question's fact had
    at that commit, or None when it was absent."""
    from bench.realtruth.gitread import day_edges, day_of

    chain = g.chain
    days = sorted({day_of(chain[int(len(chain) * f)].eff) for f in (0.5, 0.7, 0.85)})
    out = []
    for q in sorted(questions, key=lambda q: _rank("asof", q["question"])):
        for day in days:
            start, end = day_edges(day)
            commits = [g.in_effect(t, raw=raw) for t in (start, end) for raw in (False, True)]
            if None in commits:
                continue
            if {found_at(c.sha, q) for c in commits} != {q["value"]}:
                continue
            out.append(dict(q, question=P.asof_wording(q["question"], day), as_of=day,
                            evidence=dict(q["evidence"], day_start_commit=commits[0].sha,
                                          day_end_commit=commits[2].sha,
                                          checked="git show at both edges")))
            break
        if len(out) >= per_repo:
            break
    return out


def js_function_at(g):
    """found_at for js_functions questions: the name, when the file at SHA has a JSDoc'd
    definition of it with the same first sentence."""
    def at(sha, q):
        text = g.show(sha, q["path"])
        doc = J.js_functions(text).get(("def", q["value"])) if text else None
        return q["value"] if doc is not None and doc == q["evidence"]["jsdoc"] else None
    return at


def ts_route_at(g):
    """found_at for ts_routes questions: the route's METHOD /path at SHA, found by its JSDoc."""
    def at(sha, q):
        routes_ts = g.show(sha, "src/app/routes/routes.ts") or ""
        m = re.search(r"Router\(\)\.use\(\s*['\"]([^'\"]+)['\"]", routes_ts)
        prefix = m.group(1) if m else ""
        hits = {f"{verb.upper()} {prefix.rstrip('/')}{rpath}"
                for doc, verb, rpath in _TS_ROUTE.findall(g.show(sha, q["path"]) or "")
                if doc.strip().rstrip(".") == q["evidence"]["jsdoc"]}
        return hits.pop() if len(hits) == 1 else None
    return at

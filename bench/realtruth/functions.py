"""Questions about code: functions asked by purpose (a paraphrase of the docstring's first line),
functions and classes asked by a name they no longer have (renames found with ``ast``: a def
removed and a def with an identical -- or clearly most similar, >= 0.9 -- body added in one commit), Flask routes with their blueprint prefixes, and the
JavaScript/TypeScript facts (JSDoc'd functions, Express routes) that repomem has no miner for yet."""

from __future__ import annotations

import difflib
import hashlib
import posixpath
import re

import extract as X
import phrasing as P

PER_REPO_FUNCS = 22
PER_REPO_RENAMES = 14
_SKIP_DIRS = ("tests/", "test/", "docs/", "examples/", "migrations/")


def _py_files(g, rev, dirs):
    files = []
    for d in dirs:
        files += [p for p in g.ls(rev, d) if p.endswith(".py")
                  and not any(s in p + "/" for s in _SKIP_DIRS)]
    return files


def _q(repo, family, question, kinds, value, path, *, subject=None, stale=(), evidence=None,
       as_of=None, absent=False):
    return {"family": family, "question": question, "kinds": kinds, "subject": subject,
            "value": value, "path": path, "stale_values": sorted(set(stale)), "as_of": as_of,
            "absent": absent, "evidence": evidence or {}}


def _rank(*salt):
    # salted apart from the split's hash of the question text, so a cap does not pick a half
    return hashlib.sha1(repr(("order",) + salt).encode()).hexdigest()


def python_functions(g, repo, proj, dirs):
    """Functions with a usable, unique docstring line whose name is unique at HEAD."""
    head = g.head.sha
    defs = {}
    for path in _py_files(g, head, dirs):
        try:
            for fid, doc in X.functions(g.show(head, path) or "").items():
                defs.setdefault(fid[1].split(".")[-1], []).append((fid[1], path, doc))
        except SyntaxError:
            continue
    docs = {}
    for name, where in defs.items():
        for _, _, doc in where:
            docs[doc] = docs.get(doc, 0) + 1
    out = []
    for name, where in sorted(defs.items(), key=lambda kv: _rank(repo, kv[0])):
        if len(where) != 1 or name.startswith("__"):
            continue
        qual, path, doc = where[0]
        para = P.third_person(doc) if doc and docs[doc] == 1 else None
        if not para or name.lower() in para.lower() or P.markers(para):
            continue
        q = P.pick(P.FUNC, repo, name).format(proj=proj, doc=para)
        out.append(_q(repo, "function", q, ["function"], name, path,
                      evidence={"commit": head, "path": path, "qualname": qual, "docstring": doc}))
        if len(out) >= PER_REPO_FUNCS:
            break
    return out


def renames(g, repo, proj, dirs):
    """'What is `old` called?': renames (identical body, another name, one commit) followed to
    HEAD; asked only when the old name is defined nowhere at HEAD and the final one exactly once."""
    head = g.head.sha
    found = []  # (commit, old qualname, new qualname, new path)
    prints: dict[str, dict] = {}  # blob id -> {qualname: body}; each blob is parsed once

    def fingerprints(blob):
        if blob not in prints:
            try:
                prints[blob] = X.body_fingerprints(g.blob(blob) or "") if set(blob) != {"0"} else {}
            except SyntaxError:
                prints[blob] = {}
        return prints[blob]

    index = {c.sha: i for i, c in enumerate(g.chain)}
    for c in g.touching(dirs):
        if not index[c.sha]:
            continue
        parent = g.chain[index[c.sha] - 1].sha
        raw = g.git("diff-tree", "-r", "--no-commit-id", "--no-renames", parent, c.sha, "--", *dirs)
        before, after = {}, {}
        for line in raw.splitlines():
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) < 4 or not path.endswith(".py"):
                continue
            for blob, acc in ((parts[2], before), (parts[3], after)):
                for qual, body in fingerprints(blob).items():
                    acc.setdefault(body, []).append((qual, path))
        names_after = {q for v in after.values() for q, _ in v}
        names_before = {q for v in before.values() for q, _ in v}
        gone = [(body, olds[0]) for body, olds in before.items()
                if len(olds) == 1 and olds[0][0] not in names_after and len(body) >= 250]
        born = [(body, news[0]) for body, news in after.items()
                if len(news) == 1 and news[0][0] not in names_before and len(body) >= 250]
        for body, (old, _) in gone:
            # identical body, else one clearly most similar body (>= 0.9) among the new defs
            same = [(new, npath) for b, (new, npath) in born if b == body]
            if not same:
                scored = sorted(((difflib.SequenceMatcher(None, body, b, autojunk=False).ratio(), new,
                                  npath) for b, (new, npath) in born
                                 if abs(len(b) - len(body)) < 0.2 * len(body)), reverse=True)
                if scored and scored[0][0] >= 0.9 and (len(scored) == 1 or scored[1][0] < 0.8):
                    same = [scored[0][1:]]
            if len(same) == 1 and _leaf(old) != _leaf(same[0][0]):
                found.append((c, old, same[0][0], same[0][1]))
    # follow each lineage to HEAD
    head_defs = {}
    for path in _py_files(g, head, dirs):
        try:
            for qual in X.body_fingerprints(g.show(head, path) or ""):
                head_defs.setdefault(_leaf(qual), []).append((qual, path))
        except SyntaxError:
            pass
    out = []
    for i, (c, old, new, _) in enumerate(found):
        chain = [_leaf(old)]
        cur = new
        for c2, o2, n2, _ in found[i + 1:]:
            if o2 == cur:
                chain.append(_leaf(cur))
                cur = n2
        final, oldname = _leaf(cur), _leaf(old)
        is_class = oldname.startswith("class:")
        if (oldname in head_defs or len(head_defs.get(final, [])) != 1
                or oldname.split(":")[-1].startswith("_") or is_class != final.startswith("class:")):
            continue
        if any(o == old for _, o, _, _ in found[:i]):
            continue
        qual, path = head_defs[final][0]
        tpl = P.RENAMED_CLASS if is_class else P.RENAMED
        q = P.pick(tpl, repo, old).format(proj=proj, name=oldname.split(":")[-1])
        out.append(_q(repo, "renamed", q, ["class"] if is_class else ["function"],
                      final.split(":")[-1], path, stale=[x.split(":")[-1] for x in chain],
                      evidence={"renamed_in": c.sha, "from": old, "to": new, "head_qualname": qual,
                                "head_path": path, "checked": "ast: identical or >= 0.9 similar body, one commit"}))
    out.sort(key=lambda q: _rank(repo, q["question"]))
    return out[:PER_REPO_RENAMES]


def _leaf(qual: str) -> str:
    """'Class.method' -> 'method'; 'class:Name' stays (a class is not a function)."""
    return qual if qual.startswith("class:") else qual.split(".")[-1]


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
                for fid, doc in X.js_functions(g.show(head, path) or "").items():
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

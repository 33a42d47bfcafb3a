"""Renamed functions and classes, found with ``ast`` (JavaScript/TypeScript: the narrow
definition patterns of ``extract_js.body_fingerprints``): in one first-parent commit a def (or class)
disappears and one with an identical -- or clearly most similar (>= 0.9, the runner-up < 0.8)
-- body appears under another name.  Each rename is followed through later renames to HEAD.

Questions: the retired name asked for ("what is `old` called?", expecting the name at HEAD), and
the function asked by purpose on a day before the rename (expecting the name it had then; the
day checked at both edges like every as-of answer)."""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass

from bench.realtruth import extract as X
from bench.realtruth import extract_js as J
from bench.realtruth import phrasing as P
from bench.realtruth.gitread import code_files, day_edges, day_of

PER_REPO_RENAMES = 14
PER_REPO_ASOF = 8
DAY = 86400
_CACHE: dict = {}


@dataclass
class Lineage:
    commit: object       # the commit of the rename
    old: str             # qualname before (``class:Name`` for a class)
    old_path: str
    new: str
    final: str           # leaf name at HEAD
    final_path: str
    chain: list          # every leaf name before the final one


def _leaf(qual: str) -> str:
    """'Class.method' -> 'method'; 'class:Name' stays (a class is not a function)."""
    return qual if qual.startswith("class:") else qual.split(".")[-1]


def _rank(*salt):
    return hashlib.sha1(repr(("order",) + salt).encode()).hexdigest()


_JS = (".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx")


def _defs(path: str, text: str) -> dict:
    """qualname -> body of each definition in one file version (SyntaxError: unparseable)."""
    if path.endswith(_JS):
        return J.body_fingerprints(text)
    return X.body_fingerprints(text) if path.endswith(".py") else {}


def _renames(g, dirs):
    """[(commit, old qualname, old path, new qualname, new path)] along the first-parent chain."""
    found = []
    prints: dict[str, dict] = {}  # blob id -> {qualname: body}: each blob is parsed once

    def fingerprints(blob, path):
        if blob not in prints:
            try:
                prints[blob] = _defs(path, g.blob(blob) or "") if set(blob) != {"0"} else {}
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
            if len(parts) < 4 or not path.endswith((".py",) + _JS):
                continue
            for blob, acc in ((parts[2], before), (parts[3], after)):
                for qual, body in fingerprints(blob, path).items():
                    acc.setdefault(body, []).append((qual, path))
        names_after = {q for v in after.values() for q, _ in v}
        names_before = {q for v in before.values() for q, _ in v}
        gone = [(body, olds[0]) for body, olds in before.items()
                if len(olds) == 1 and olds[0][0] not in names_after and len(body) >= 250]
        born = [(body, news[0]) for body, news in after.items()
                if len(news) == 1 and news[0][0] not in names_before and len(body) >= 250]
        for body, (old, opath) in gone:
            same = [(new, npath) for b, (new, npath) in born if b == body]
            if not same:
                scored = sorted(((difflib.SequenceMatcher(None, body, b, autojunk=False).ratio(),
                                  new, npath) for b, (new, npath) in born
                                 if abs(len(b) - len(body)) < 0.2 * len(body)), reverse=True)
                if scored and scored[0][0] >= 0.9 and (len(scored) == 1 or scored[1][0] < 0.8):
                    same = [scored[0][1:]]
            if len(same) == 1 and _leaf(old) != _leaf(same[0][0]):
                found.append((c, old, opath, same[0][0], same[0][1]))
    return found


def lineages(g, dirs) -> list[Lineage]:
    """Renames whose retired name is defined nowhere at HEAD and whose final name exactly once."""
    key = (g.root, tuple(dirs))
    if key in _CACHE:
        return _CACHE[key]
    head_defs: dict = {}
    for path in code_files(g, g.head.sha, dirs):
        try:
            for qual in _defs(path, g.show(g.head.sha, path) or ""):
                head_defs.setdefault(_leaf(qual), []).append((qual, path))
        except SyntaxError:
            pass
    found = _renames(g, dirs)
    out = []
    for i, (c, old, opath, new, _) in enumerate(found):
        if any(o == old for _, o, _, _, _ in found[:i]):
            continue
        chain, cur = [_leaf(old)], new
        for _, o2, _, n2, _ in found[i + 1:]:
            if o2 == cur:
                chain.append(_leaf(cur))
                cur = n2
        final = _leaf(cur)
        if (chain[0] in head_defs or len(head_defs.get(final, [])) != 1
                or chain[0].startswith("class:") != final.startswith("class:")):
            continue
        out.append(Lineage(c, old, opath, new, final, head_defs[final][0][1], chain))
    _CACHE[key] = out
    return out


def renamed_questions(g, repo, proj, dirs):
    out = []
    for ln in lineages(g, dirs):
        oldname = ln.chain[0].split(":")[-1]
        if oldname.startswith("_"):
            continue
        is_class = ln.final.startswith("class:")
        tpl = P.RENAMED_CLASS if is_class else P.RENAMED
        q = P.pick(tpl, repo, ln.old).format(proj=proj, name=oldname)
        out.append({"family": "renamed", "question": q, "kinds": ["class" if is_class else "function"],
                    "subject": None, "value": ln.final.split(":")[-1], "path": ln.final_path,
                    "stale_values": sorted({x.split(":")[-1] for x in ln.chain}), "as_of": None,
                    "absent": False,
                    "evidence": {"renamed_in": ln.commit.sha, "from": ln.old, "to": ln.new,
                                 "head_path": ln.final_path,
                                 "checked": "ast: identical or >= 0.9 similar body, one commit"}})
    out.sort(key=lambda q: _rank(repo, q["question"]))
    return out[:PER_REPO_RENAMES]


def _doc_at(g, sha, path, qual):
    """The first docstring sentence of QUAL in PATH at SHA, or None when it is not defined."""
    text = g.show(sha, path)
    if text is None:
        return None
    try:
        if path.endswith(_JS):
            return J.js_functions(text).get(("def", qual))
        return X.functions(text).get(("def", qual))
    except SyntaxError:
        return None


def asof_before_rename(g, repo, proj, dirs):
    """'On <day>, which function <does X>?' on a day before the rename: the name it had then."""
    out = []
    for ln in lineages(g, dirs):
        if ln.old.startswith("class:"):
            continue
        day = day_of(ln.commit.eff - 30 * DAY)
        start, end = day_edges(day)
        docs, shas = set(), []
        for t in (start, end):
            for raw in (False, True):
                c = g.in_effect(t, raw=raw)
                docs.add(_doc_at(g, c.sha, ln.old_path, ln.old) if c else None)
                shas.append(c.sha if c else None)
        if len(docs) != 1:
            continue
        doc = docs.pop()
        para = P.third_person(doc) if doc else None
        name = _leaf(ln.old)
        if not para or name.lower() in para.lower() or P.markers(para):
            continue
        q = P.asof_wording(P.pick(P.FUNC, repo, ln.old, day).format(proj=proj, doc=para), day)
        out.append({"family": "function", "question": q, "kinds": ["function"], "subject": None,
                    "value": name, "path": ln.old_path, "stale_values": [], "as_of": day,
                    "absent": False,
                    "evidence": {"day_start_commit": shas[0], "day_end_commit": shas[2],
                                 "path": ln.old_path, "qualname": ln.old, "docstring": doc,
                                 "renamed_in": ln.commit.sha,
                                 "checked": "git show at both edges"}})
    out.sort(key=lambda q: _rank(repo, q["question"]))
    return out[:PER_REPO_ASOF]

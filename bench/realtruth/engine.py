"""From a history to questions: fact timelines along the first-parent chain, the both-edge check
of every as-of answer, and the question records (schema: docs/benchmarks.md, SHARED_DECISIONS #5).

A repository's configuration (repos.py) says which files to read and how (``sources``: a path and
an extractor from extract.py) and how to word each fact (``describe``).  The state of the
repository at a commit is ``{fact id: (value, path)}``; a fact id stated by two files at once with
two values is ambiguous there and never asked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from bench.realtruth.extract import NONLITERAL
from bench.realtruth.gitread import GitRepo, day_edges, day_of

AMBIGUOUS = "<ambiguous>"
UNASKED = {AMBIGUOUS, NONLITERAL}  # values that are present but never asked or compared
DAY = 86400


@dataclass
class Source:
    path: str                      # a file, or a folder for ``scan`` sources
    parse: Callable                # text -> {fid: value}   (scan: (git, rev) -> {fid: (value, path)})
    scope: Callable = lambda fid: fid  # extractor's id -> the asked fact's id (None: not asked)
    scan: bool = False


@dataclass
class Config:
    name: str
    proj: str                      # how a developer names the project in a question
    sources: list[Source]
    describe: Callable             # (fid, value, path, as_of day | None, absent) -> dict | None
    extra: Callable | None = None  # (git) -> list of question dicts (functions, renames)
    asof_per_fact: int = 2
    notes: dict = field(default_factory=dict)


class Timeline:
    def __init__(self, g: GitRepo, cfg: Config):
        self.g, self.cfg = g, cfg
        self._states: dict[str, dict | None] = {}

    def state(self, sha: str) -> dict | None:
        """{fid: (value, path)} at SHA; None when a read file does not parse there."""
        if sha not in self._states:
            out: dict = {}
            ok = True
            for s in self.cfg.sources:
                try:
                    if s.scan:
                        facts = s.parse(self.g, sha)
                    else:
                        text = self.g.show(sha, s.path)
                        facts = {} if text is None else {k: (v, s.path) for k, v in s.parse(text).items()}
                except Exception:  # a file that does not parse at this commit: unknown state
                    ok = False
                    break
                for fid, vp in facts.items():
                    fid = s.scope(fid)
                    if fid is None:
                        continue
                    if fid in out and out[fid] != vp:
                        out[fid] = (AMBIGUOUS, vp[1])
                    else:
                        out[fid] = vp
            self._states[sha] = out if ok else None
        return self._states[sha]

    def series(self):
        """[(commit, state)] at every first-parent commit touching a source, oldest first."""
        commits = self.g.touching([s.path for s in self.cfg.sources])
        if not commits or commits[-1].sha != self.g.head.sha:
            commits.append(self.g.head)
        return [(c, self.state(c.sha)) for c in commits]

    def check_day(self, fid, day: str):
        """(value, path, evidence) when the fact has one value at both edges of DAY under both
        readings of commit time (effective and raw); None when ambiguous or unknown."""
        start, end = day_edges(day)
        seen, shas = set(), []
        for t in (start, end):
            for raw in (False, True):
                c = self.g.in_effect(t, raw=raw)
                if c is None:
                    return None
                st = self.state(c.sha)
                if st is None:
                    return None
                seen.add(st.get(fid))
                shas.append(c.sha)
        if len(seen) != 1:
            return None
        vp = seen.pop()
        if vp is not None and vp[0] in UNASKED:
            return None
        ev = {"day_start_commit": shas[0], "day_end_commit": shas[2], "checked": "git show at both edges"}
        return vp, ev


def intervals(series, fid):
    """[(value_path | None, from_eff, to_eff | None)] of one fact along the series."""
    out = []
    for c, st in series:
        if st is None:
            continue
        vp = st.get(fid)
        if out and out[-1][0] == vp:
            continue
        if out:
            out[-1][2] = c.eff
        out.append([vp, c.eff, None])
    return out


def build(g: GitRepo, cfg: Config) -> list[dict]:
    tl = Timeline(g, cfg)
    series = tl.series()
    head = tl.state(g.head.sha) or {}
    fids = set()
    for _, st in series:
        fids |= set(st or {})
    qs: list[dict] = []
    for fid in sorted(fids, key=repr):
        iv = intervals(series, fid)
        prio = 0 if fid[0] != "dep" or fid[1] == "main" or fid[1].startswith("example:") else 1
        values = [x[0][0] for x in iv if x[0] is not None and x[0][0] not in UNASKED]
        cur = head.get(fid)
        if cur is not None and cur[0] not in UNASKED:
            stale = sorted({v for v in values if v != cur[0]})
            q = cfg.describe(fid, cur[0], cur[1], None, False)
            if q:
                qs.append(dict(q, priority=prio, as_of=None, value=cur[0], path=cur[1], stale_values=stale,
                               evidence={"commit": g.head.sha, "path": cur[1]}))
        elif cur is None and values:
            last = [x for x in iv if x[0] is not None and x[0][0] not in UNASKED][-1]
            q = cfg.describe(fid, None, last[0][1], None, True)
            if q and _removed_for_good(fid, head) and not _assigned_elsewhere(g, fid):
                qs.append(dict(q, priority=prio, as_of=None, value=None, path=last[0][1], absent=True,
                               stale_values=sorted(set(values)),
                               evidence={"commit": g.head.sha, "removed_at": day_of(last[2]),
                                         "last_path": last[0][1]}))
        # as-of: a day inside each earlier interval of a value (spread over the history)
        past = [x for x in iv if x[0] is not None and x[0][0] not in UNASKED and x[2] is not None
                and x[2] - x[1] >= 3 * DAY]
        if len(values) < 2 and cur is not None:
            past = []  # one value all along: an as-of question would test nothing
        chosen = past[-cfg.asof_per_fact:] if cfg.asof_per_fact else []
        for vp, t0, t1 in chosen:
            for frac in (0.5, 0.3, 0.7, 0.15, 0.85):
                day = day_of(int(t0 + frac * (t1 - t0)))
                got = tl.check_day(fid, day)
                if got and got[0] == vp:
                    before = {x[0][0] for x in iv if x[0] is not None and x[1] < t0}
                    q = cfg.describe(fid, vp[0], vp[1], day, False)
                    if q:
                        qs.append(dict(q, priority=prio, as_of=day, value=vp[0], path=vp[1],
                                       stale_values=sorted(before - {vp[0]} - UNASKED),
                                       evidence=dict(got[1], path=vp[1])))
                    break
    if cfg.extra:
        qs += cfg.extra(g)
    return qs


def _assigned_elsewhere(g: GitRepo, fid) -> bool:
    """A constant that left the files read may have moved to another one (httpie's brackets
    went to ``cli/nested_json/tokens.py``): it is not removed while any file at HEAD assigns
    the name (``git grep``)."""
    if fid[0] != "const":
        return False
    pat = rf"^\s*(pub\s+)?(const\s+)?{re.escape(fid[1])}\s*(:[^=]*)?=[^=]"
    try:
        g.git("grep", "-q", "-E", pat, g.head.sha)
    except RuntimeError:  # git grep exits 1 when nothing matches
        return False
    return True


def _removed_for_good(fid, head: dict) -> bool:
    """A removed fact is asked only when nothing at HEAD states the same subject (a dependency
    that went from one group to another is not removed)."""
    return not any(k[0] == fid[0] and k[-1] == fid[-1] for k in head)

"""The task benchmark's Markdown report: training and held-out side by side, then each
repository, then (with --misses) every needed fact a context left out."""

from __future__ import annotations


def _columns(budgets: list[int]) -> list[tuple[str, str]]:
    return [("prompts", "prompts"), ("needs", "needed facts"), ("in_store", "in store")] + [
        c for b in budgets for c in ((f"recall@{b}", f"recall@{b}"),
                                     (f"full@{b}", f"fully served@{b}"),
                                     (f"precision@{b}", f"precision@{b}"),
                                     (f"stale@{b}", f"stale shown@{b}"))
    ] + [c for b in budgets for c in ((f"grep_recall@{b}", f"grep recall@{b}"),
                                      (f"grep_full@{b}", f"grep fully@{b}"))]


def _cell(v) -> str:
    if v is None:
        return "-"
    return f"{v:.2f}" if isinstance(v, float) else str(v)


def _table(rows: dict[str, dict], first: str, budgets: list[int]) -> list[str]:
    cols = _columns(budgets)
    out = ["| " + " | ".join([first] + [h for _, h in cols]) + " |",
           "|" + "---|" * (len(cols) + 1)]
    for name, m in rows.items():
        if m.get("prompts"):
            out.append("| " + " | ".join([name] + [_cell(m.get(k)) for k, _ in cols]) + " |")
    return out


def markdown(res: dict, misses: bool = False) -> str:
    budgets = res["budgets"]
    b = budgets[-1]
    g = res.get("groups", {})
    md = ["# python -m bench tasks" + (" --quick" if res.get("quick") else ""), "",
          f"Embedder `{res.get('embedder', 'hash')}`. "
          f"Prompts a developer gives a coding agent; `repomem context` at {' and '.join(map(str, budgets))} "
          "tokens (the hook's and the CLI's budgets) against the facts each task needs (read from "
          "git). Grep: `git grep` of the prompt's words at the same budget.", "",
          *_table({k: g[k] for k in ("training", "held-out", "all") if k in g}, "group", budgets),
          "",
          "## Per repository", "",
          *_table({f"{n} ({res['repos'][n]['split']})": m
                   for n, m in res.get("by_repo", {}).items()}, "repository", budgets), ""]
    al = g.get("all", {})
    md += [f"Of the needed facts missing at {b} tokens, {al.get(f'ranking_miss@{b}', 0)} were in the "
           f"store (ranking left them out; the rest were never mined); "
           f"shown with their value written otherwise: {al.get(f'other_value@{b}', 0)}.", ""]
    bad = {k: v for k, v in ((n, m.get(f"unresolved@{b}")) for n, m in g.items()) if v}
    if bad:
        md += [f"**Bullets that named no current fact** (the rendering's provenance changed?): {bad}", ""]
    skipped = [f"{n}: {i.get('status')}" for n, i in res["repos"].items() if i.get("status") != "ok"]
    if skipped:
        md += ["Not measured: " + "; ".join(skipped), ""]
    md += [f"Run time: {res.get('seconds')} s.", ""]
    if misses:
        md += [f"## Needed facts missing at {b} tokens", ""]
        for x in res["rows"]:
            left = [n for n, s in zip(x["need"], x[str(b)]["served"]) if not s]
            if left:
                md.append(f"- **{x['id']}** ({x['split']}) {x['prompt']}")
                md += [f"  - missing: {n}" for n in left]
                md += [f"  - shown: {f['subject']} = {f['value']} ({f['path']})"
                       for f in x[str(b)]["got"]]
        md.append("")
    return "\n".join(md)

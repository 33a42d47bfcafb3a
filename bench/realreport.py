"""Markdown and the PNG chart of the real-history benchmark."""

from __future__ import annotations

from pathlib import Path

from bench.report import bar_chart

FAMILIES = ["dependency", "python", "settings", "constant", "route", "function", "renamed",
            "docker"]


def _r(x) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def _cells(m: dict | None) -> str:
    if not m:
        return "| - | | | | |"
    return (f"| {m['n']} | {_r(m['top1'])} | {_r(m['top3'])} | "
            f"{_r(m.get('as_of_top3'))} ({m['as_of_n']}) | {m['stale_top1']} |")


def table(summary: dict, order: list[str], label: str) -> str:
    """One row per group, the training and the held-out repositories' figures side by side."""
    lines = [f"| {label} | train n | top 1 | top 3 | as-of top 3 (n) | stale top 1 "
             "| held-out n | top 1 | top 3 | as-of top 3 (n) | stale top 1 |", "|---" * 11 + "|"]
    for g in order + ["ALL"]:
        row = summary.get(g, {})
        if not (row.get("train") or row.get("held-out")):
            continue
        lines.append(f"| {g} " + _cells(row.get("train")) + _cells(row.get("held-out"))[1:])
    return "\n".join(lines)


def _misses(groups: dict) -> list[str]:
    """Current questions not answered first, by whether the expected fact was in the store."""
    out = []
    for split in ("train", "held-out"):
        m = groups.get(split)
        if m and "ranking_miss" in m:
            out.append(f"- {split}: of the current questions not answered first, "
                       f"{m['ranking_miss']} had the expected fact in the store (ranking chose "
                       f"another) and {m['mining_miss']} did not (never mined, or mined otherwise)")
    return out + [""] if out else []


def detail(summary: dict, order: list[str], label: str) -> str:
    """Every metric, one row per group and side (as-of top 1 and stale exposure too)."""
    head = (f"| {label} | group | n | top 1 | top 3 | as-of top 1 (n) | as-of top 3 | as-of, any "
            "path | stale top 1 | stale exposure@5 |\n|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for g in order + ["ALL"]:
        for split in ("train", "held-out"):
            m = summary.get(g, {}).get(split)
            if not m:
                continue
            lines.append(f"| {g} | {split} | {m['n']} | {_r(m['top1'])} | {_r(m['top3'])} | "
                         f"{_r(m['as_of'])} ({m['as_of_n']}) | {_r(m.get('as_of_top3'))} | "
                         f"{_r(m['as_of_any_path'])} | {m['stale_top1']} | {_r(m['stale_at5'])} |")
    return "\n".join(lines)


def markdown(res: dict, misses: bool = False) -> str:
    repos = sorted(res["repos"], key=lambda n: (res["repos"][n].get("split") != "train", n))
    fams = [f for f in FAMILIES if f in res["by_family"]] + sorted(
        f for f in res["by_family"] if f not in FAMILIES and f != "ALL")
    out = [f"# python -m bench real{' --quick' if res['quick'] else ''}", "",
           f"Embedder `{res.get('embedder', 'hash')}`; k = {res['k']}; questions from "
           "bench/realrepos (truth from git, never from "
           "repomem): generated from the histories and written by hand (hand/). The split is by "
           "repository: training repositories (tuned on) and held-out ones (only reported), "
           "side by side. top 1 / top 3: the right fact (kind, value, subject and path) ranked "
           "first / in the first three; as-of top 3: top 3 over the questions about a past day; "
           "stale top 1: questions whose top fact states a superseded value of the asked "
           "subject; stale exposure@5: share of questions with one in the five facts handed over.",
           ""]
    for name in repos:
        info = res["repos"][name]
        how = ("cached store" if info.get("cached") else f"ingested in {info.get('ingest_s')} s") \
            if info.get("status") == "ok" else info.get("status")
        err = f": {info['error']}" if info.get("error") else ""
        out.append(f"- {name} ({info.get('split')}): {info['questions']} questions "
                   f"({info.get('hand', 0)} by hand), {how}{err}")
    srcs = [s for s in ("generated", "hand") if s in res.get("by_source", {})]
    out += ["", "## Per group", "", table({"ALL": res["by_repo"].get("ALL", {})}, [], "questions"),
            "", "## Per repository", "", table(res["by_repo"], repos, "repository"), "",
            "## Per family", "", table(res["by_family"], fams, "family"), "",
            "## Generated and hand-written questions", "",
            table(res.get("by_source", {}), srcs, "questions"), "",
            "## Every metric, per repository", "", detail(res["by_repo"], repos, "repository"), "",
            *_misses(res["by_repo"].get("ALL", {}))]
    lat = res.get("latency")
    if lat:
        from bench import asklatency

        out += asklatency.markdown(lat)
    else:
        out += ["(latency: no timed history in this run)", ""]
    out.append(f"Stale top-1: {res.get('stale_top1', res['stale_python'])} (any repository; "
               "the command exits 1 when it is not 0)")
    if res.get("chart"):
        out.append(f"Chart: {res['chart']}")
    if misses:
        out += ["", "## Misses (question, expected, top 3 returned)", ""]
        for x in res["rows"]:
            if x["top3"] and not x["stale_top1"]:
                continue
            got = "; ".join(f"{g['kind']} {g['value']!r} @ {g['path']}" for g in x["got"]) or "nothing"
            tag = " STALE" if x["stale_top1"] else ""
            exp = "absent" if x["absent"] else f"{x['expected']!r} @ {x['expected_path']}"
            out.append(f"- [{x['repo']}/{x['family']}/{x['split']}/{x.get('source')}{tag}] "
                       f"{x['question']}{' (as of ' + x['as_of'] + ')' if x['as_of'] else ''} -> "
                       f"expected {exp}; got {got}")
    return "\n".join(out) + "\n"


def chart(res: dict, path: Path) -> str | None:
    """Right fact in the top 3 per family, training and held-out repositories side by side;
    None without matplotlib."""
    fams = [f for f in FAMILIES if f in res["by_family"]] + ["ALL"]
    colors = {"train": "#5b8fd6", "held-out": "#2e9e5b"}
    series = [(f"{split}: right fact in top 3",
               [100 * ((res["by_family"].get(f, {}).get(split) or {}).get("top3") or 0) for f in fams],
               colors[split]) for split in ("train", "held-out")]
    return bar_chart(path, fams, series, ylabel="%", ylim=110, tick_size=8,
                     title=f"Real-history benchmark: right fact in top 3 (k={res['k']}), "
                           f"{len(res['rows'])} questions",
                     legend=dict(fontsize=8, loc="upper right"))

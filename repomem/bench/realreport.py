"""Markdown and the PNG chart of the real-history benchmark."""

from __future__ import annotations

from pathlib import Path

from repomem.bench.report import bar_chart

FAMILIES = ["dependency", "python", "settings", "constant", "route", "function", "renamed",
            "docker"]


def _r(x) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def table(summary: dict, order: list[str], label: str) -> str:
    head = (f"| {label} | half | n | top 1 | top 3 | as-of (n) | as-of, any path | stale top 1 "
            "| stale exposure@5 |\n|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for g in order + ["ALL"]:
        for split in ("dev", "held-out"):
            m = summary.get(g, {}).get(split)
            if not m:
                continue
            lines.append(f"| {g if split == 'dev' or not summary[g].get('dev') else ''} | {split} "
                         f"| {m['n']} | {_r(m['top1'])} | {_r(m['top3'])} | "
                         f"{_r(m['as_of'])} ({m['as_of_n']}) | {_r(m['as_of_any_path'])} | "
                         f"{m['stale_top1']} | "
                         f"{_r(m['stale_at5'])} |")
    return "\n".join(lines)


def markdown(res: dict, misses: bool = False) -> str:
    repos = list(res["repos"])
    fams = [f for f in FAMILIES if f in res["by_family"]] + sorted(
        f for f in res["by_family"] if f not in FAMILIES and f != "ALL")
    out = [f"# repomem bench --real{' --quick' if res['quick'] else ''}", "",
           f"k = {res['k']}; questions from bench/realrepos (truth from git, never from "
           "repomem); dev and held-out halves by sha1 of the question text. top 1 / top 3: the "
           "right fact (kind, value, subject and path) ranked first / in the first three; as-of: "
           "top 1 over the as-of questions (\"any path\": the right value cited from another "
           "file); stale top 1: questions whose top fact states a superseded value of the asked "
           "subject; stale exposure@5: share of questions with one in the five facts handed over.",
           ""]
    for name, info in res["repos"].items():
        how = ("cached store" if info.get("cached") else f"ingested in {info.get('ingest_s')} s") \
            if info.get("status") == "ok" else info.get("status")
        err = f": {info['error']}" if info.get("error") else ""
        out.append(f"- {name}: {info['questions']} questions, {how}{err}")
    out += ["", "## Per repository", "", table(res["by_repo"], repos, "repository"), "",
            "## Per family", "", table(res["by_family"], fams, "family"), ""]
    lat = res.get("latency")
    if lat:
        out += ["## Ask latency (click, full history)", "",
                f"- warm in-process `ask`: p50 {lat['ask_warm_p50_ms']} ms, p95 "
                f"{lat['ask_warm_p95_ms']} ms ({lat['warm_asks']} asks; target p50 <= 20 ms)",
                f"- cold CLI `repomem ask` (fresh process): median {lat['ask_cold_cli_median_s']} s "
                f"of {lat['cold_runs']} (target <= 0.3 s)", ""]
    else:
        out += ["(latency: click not in this run)", ""]
    out.append(f"Stale top-1 on Python repositories: {res['stale_python']}")
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
            out.append(f"- [{x['repo']}/{x['family']}/{x['split']}{tag}] {x['question']}"
                       f"{' (as of ' + x['as_of'] + ')' if x['as_of'] else ''} -> expected {exp}; "
                       f"got {got}")
    return "\n".join(out) + "\n"


def chart(res: dict, path: Path) -> str | None:
    """Right fact in the top 3 per family, dev and held-out side by side; None without
    matplotlib."""
    fams = [f for f in FAMILIES if f in res["by_family"]] + ["ALL"]
    colors = {"dev": "#5b8fd6", "held-out": "#2e9e5b"}
    series = [(f"{split}: right fact in top 3",
               [100 * ((res["by_family"].get(f, {}).get(split) or {}).get("top3") or 0) for f in fams],
               colors[split]) for split in ("dev", "held-out")]
    return bar_chart(path, fams, series, ylabel="%", ylim=110, tick_size=8,
                     title=f"Real-history benchmark: right fact in top 3 (k={res['k']}), "
                           f"{len(res['rows'])} questions",
                     legend=dict(fontsize=8, loc="upper right"))

"""Render benchmark results: Markdown tables, and a PNG chart of the stale-fact error rate."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bench.stale import CONDITIONS, SYSTEMS

TARGETS = {"ratio_to_git_log": 15, "ask_warm_p50_ms": 50, "ask_cold_p50_s": 1.5,
           "peak_rss_mb": 500}


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _num(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def stale_tables(stale: dict) -> str:
    summ = stale["summary"]
    conds = [c for c in CONDITIONS if c in summ]
    lines = [f"Embedder `{stale['embedder']}`, k = {stale['k']}; "
             f"{next(iter(summ.values()))['repomem']['questions']} questions per condition.", ""]
    for title, metric, fmt in [
            ("Stale-fact error rate (answered with a superseded value; lower is better)",
             "stale_rate", _pct),
            ("Current-value accuracy (top answer)", "accuracy", _num),
            ("Stale exposure@k (a superseded value of the subject in the context handed over)",
             "exposure", _pct),
            ("As-of accuracy (questions about past dates)", "asof_accuracy", _num),
            ("Retrieval hit@1 / hit@5 of the right fact", None, _num)]:  # (fmt unused: two figures)
        lines.append(f"**{title}**")
        lines.append("")
        lines.append("| system | " + " | ".join(conds) + " |")
        lines.append("|---|" + "---|" * len(conds))
        for s in SYSTEMS:
            cells = []
            for c in conds:
                m = summ[c].get(s, {})
                if metric is None:
                    h1, h5 = m.get("hit@1"), m.get("hit@5")
                    cells.append(f"{_num(h1)} / {_num(h5)}")
                else:
                    cells.append(fmt(m.get(metric)))
            lines.append(f"| {s} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def retrieval_table(runs: list[dict]) -> str:
    """hit@1/hit@5 per embedder (in-order condition)."""
    lines = ["| embedder | system | hit@1 | hit@5 | accuracy | stale-fact error |",
             "|---|---|---|---|---|---|"]
    for run in runs:
        cond = run["summary"].get("in-order") or next(iter(run["summary"].values()))
        for s in SYSTEMS:
            m = cond.get(s, {})
            lines.append(f"| {run['embedder']} | {s} | {_num(m.get('hit@1'))} | "
                         f"{_num(m.get('hit@5'))} | {_num(m.get('accuracy'))} | "
                         f"{_pct(m.get('stale_rate'))} |")
    return "\n".join(lines)


def perf_table(perfs: list[dict]) -> str:
    rows = [("commits (first parent)", "commits", None),
            ("`git log -p --first-parent` (s)", "git_log_s", None),
            ("full-history ingestion (s)", "ingest_s", None),
            ("commits/s", "commits_per_s", None),
            ("ratio to `git log -p`", "ratio_to_git_log", "<= 15x"),
            ("peak RSS of the ingest process (MB)", "peak_rss_mb", "<= 500"),
            ("fact versions in view", "versions", None),
            ("store size (MB)", "store_mb", None),
            ("store bytes per fact version", "bytes_per_version", None),
            ("incremental ingest of 1 commit, p50 (s)", "incremental_p50_s", None),
            ("`ask` warm p50 (ms)", "ask_warm_p50_ms", "<= 50"),
            ("`ask` warm p95 (ms)", "ask_warm_p95_ms", None),
            ("`ask` cold CLI p50 (s)", "ask_cold_p50_s", "<= 1.5"),
            ("`ask` cold CLI max (s)", "ask_cold_max_s", None),
            ("hook overhead", "hook_overhead", None)]
    head = "| measure | " + " | ".join(p["label"] for p in perfs) + " | target |"
    lines = [head, "|---|" + "---|" * len(perfs) + "---|"]
    for title, key, target in rows:
        vals = []
        for p in perfs:
            v = p.get(key)
            if isinstance(v, dict) and "overhead_median_ms" in v:
                v = (f"+{v['overhead_median_ms']} ms median, +{v.get('overhead_p95_ms')} ms p95 "
                     f"per commit")
            vals.append("n/a" if v is None else str(v))
        lines.append(f"| {title} | " + " | ".join(vals) + f" | {target or ''} |")
    return "\n".join(lines)


def misses(perfs: list[dict]) -> list[str]:
    out = []
    for p in perfs:
        if p["label"] != "generated":
            continue
        for key, limit in TARGETS.items():
            v = p.get(key)
            if v is not None and v > limit:
                out.append(f"{p['label']}: {key} = {v} (target <= {limit})")
    return out


def bar_chart(path: Path, groups: list[str], series: Sequence[tuple[str, Sequence[float], str]], *, title: str,
              ylabel: str, ylim: float, legend: dict, tick_size: int | None = None) -> str | None:
    """Grouped bars (one bar per series in each group, its value written above it) saved as a
    PNG; None when matplotlib is missing.  series: (label, values per group, colour)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(10, 4.2), dpi=110)
    width = 0.8 / len(series)
    for i, (label, vals, color) in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(groups))]
        bars = ax.bar(xs, vals, width, label=label, color=color)
        for b, v in zip(bars, vals):
            ax.text(b.get_x() + b.get_width() / 2, v + 1, f"{v:.0f}", ha="center", fontsize=7)
    ax.set_xticks(range(len(groups)))
    if tick_size is None:
        ax.set_xticklabels(groups)
    else:
        ax.set_xticklabels(groups, fontsize=tick_size)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, ylim)
    ax.set_title(title)
    ax.legend(**legend)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return str(path)


def chart(stale: dict, path: Path) -> str | None:
    """A grouped bar chart of the stale-fact error rate; None when matplotlib is missing."""
    summ = stale["summary"]
    conds = [c for c in CONDITIONS if c in summ]
    colors = ["#9e9e9e", "#5b8fd6", "#e39b3b", "#2e9e5b"]
    series = [(s, [100 * (summ[c].get(s, {}).get("stale_rate") or 0) for c in conds], colors[i % len(colors)])
              for i, s in enumerate(SYSTEMS)]
    return bar_chart(path, conds, series, ylabel="stale-fact error rate (%)", ylim=105,
                     title=f"Answered with a superseded value (embedder {stale['embedder']}, k={stale['k']})",
                     legend=dict(ncol=4, fontsize=8, loc="upper left"))

"""repomem summarize: purpose texts for the current undocumented functions, written by an Ollama
chat model and cached by body hash (the cache itself, and how the view applies it, is
``repomem.service.summaries``; apart from it because the view reads the cache and this writer
reads the view)."""

from __future__ import annotations

from repomem.service.summaries import PROMPT, body_hash, load, save, undocumented


def summarize(r, model: str, limit: int | None = None) -> dict:
    """Summarise the current undocumented functions at HEAD; cached bodies cost nothing."""
    from repomem.adapters import git
    from repomem.adapters.ollama_client import chat
    from repomem.service.view import ensure_view
    from repomem.storage.store import FOREVER

    ensure_view(r)
    with r.store.reader():
        rows = r.store.rows({"$and": [{"kind": "function"}, {"valid_to": {"$gte": FOREVER}}]})
    data = load(r.store.path)
    bodies, functions = data["bodies"].setdefault(model, {}), {}
    stats = {"functions": len(rows), "undocumented": 0, "cached": 0, "summarised": 0}
    sources: dict[str, str] = {}
    for row in sorted(rows, key=lambda x: (x["path"], x["line"])):
        if row["path"] not in sources:
            try:
                sources[row["path"]] = git.git(r.root, "show", f"HEAD:{row['path']}").decode(
                    "utf-8", "replace")
            except git.GitError:  # not in HEAD (a path of the view's older history)
                sources[row["path"]] = ""
        code = undocumented(sources[row["path"]], row["line"])
        if code is None:
            continue
        stats["undocumented"] += 1
        h = body_hash(code)
        if h in bodies:
            stats["cached"] += 1
        elif limit is None or stats["summarised"] < limit:
            bodies[h] = " ".join(chat(model, "You write short code summaries.",
                                      PROMPT.format(code=code)).split())
            stats["summarised"] += 1
        else:
            continue
        functions[row["key"]] = {"commit": row["commit"], "body": h, "model": model}
    data["functions"] = functions
    with r.store.writer():
        save(r.store.path, data)
    return stats

"""The floor under a full ingest: the work the ingest's design cannot skip, timed alone.

A full ingest reads every changed source file version once, parses it once with tree-sitter
("one parse per changed file version"), runs the language's query over it where the miner is
query-driven (JavaScript: issue 12's "query files kept as data"; Python's miner walks the tree
itself, not counted), imports chromadb, embeds every fact version and writes it to Chroma
("Chroma keeps the fact versions with their real embeddings").  This script times just those
parts, with no fact built, no redaction, no fold and no record written, and compares
their CPU time spread perfectly over the machine's cores with ``git log -p --first-parent``.
If that is already over 10x, no implementation of that design reaches 10x on this machine.

Usage: python -m bench ingest-floor [BUNDLE_OR_CLONE ...]
(default: the speed bench's, click, httpx and express from ../shared/realrepos; a bundle is
cloned into a temporary folder; each is ingested once into a temporary store, untimed, to learn
its fact versions)"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRAMMARS = {".py": "tree_sitter_python", ".js": "tree_sitter_javascript"}
QUERIED = {".js": "javascript"}  # repomem.miners.lang.LANGS: the miner runs this query


def cpu() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def timed(fn):
    c0, w0 = cpu(), time.perf_counter()
    out = fn()
    return out, cpu() - c0, time.perf_counter() - w0


def versions_of(repo: Path, ext: str) -> list[str]:
    """Blob ids of every version of a *ext file a first-parent commit added or changed."""
    raw = subprocess.run(["git", "-C", str(repo), "log", "--first-parent", "--raw", "--no-abbrev",
                          "--no-renames", "--format=", "--", f"*{ext}"],
                         capture_output=True, text=True, check=True).stdout
    return [line.split()[3] for line in raw.splitlines()
            if line.startswith(":") and line.split()[4][0] in "AM"]


def read_blobs(repo: Path, blobs: list[str]) -> list[bytes]:
    """As the miners read them: one long-lived ``git cat-file --batch``."""
    from repomem.adapters.git import BlobReader

    with BlobReader(repo) as reader:
        return [data for data in map(reader.read, blobs) if data is not None]


def _parses(root, size: int) -> bool:
    from repomem.miners._base import MineError
    from repomem.miners.lang.walker import check_parse

    try:
        check_parse(root, size)
    except MineError:
        return False
    return True


def measure(src: Path, work: Path) -> dict:
    import importlib

    from tree_sitter import Language, Parser

    from bench.perf import _timed_child
    from bench.speed import _clone

    repo = _clone(src, work)
    store = work / f"store-{repo.name}"
    env = dict(os.environ, ANONYMIZED_TELEMETRY="False")
    subprocess.run([sys.executable, "-m", "repomem", "ingest", "--all", "-q", "--repo", str(repo),
                    "--store", str(store)], env=env, check=True)
    # as the speed bench times it (bench/speed.py): best of 3
    git_log = min(_timed_child(["git", "-C", str(repo), "log", "-p", "--first-parent", "--no-color",
                                "HEAD"])[0] for _ in range(3))
    res: dict = {"repo": repo.name, "git_log_s": git_log, "parts": {}}
    from tree_sitter import QueryCursor

    from repomem.miners.lang import LANGS, load

    read_s = parse_s = query_s = 0.0
    n = size = 0
    for ext, module in GRAMMARS.items():
        blobs = versions_of(repo, ext)
        if not blobs:
            continue
        srcs, c, _ = timed(lambda b=blobs: read_blobs(repo, b))
        read_s += c
        parser = Parser(Language(importlib.import_module(module).language()))
        trees, c, _ = timed(lambda s=srcs, p=parser: [p.parse(x) for x in s])
        parse_s += c
        if ext in QUERIED:  # as the miner does: not over a tree it rejects for its errors
            query = load(LANGS[QUERIED[ext]])[1]
            kept = [t for t, src in zip(trees, srcs) if _parses(t.root_node, len(src))]
            _, c, _ = timed(lambda t=kept, q=query: [QueryCursor(q).matches(x.root_node)
                                                     for x in t])
            query_s += c
        n, size = n + len(srcs), size + sum(map(len, srcs))
    res["versions"], res["mb"] = n, round(size / 1e6, 1)
    res["parts"]["read every changed source version (git cat-file)"] = read_s
    res["parts"]["parse each once (tree-sitter)"] = parse_s
    if query_s:
        res["parts"]["run the language's query over each tree (tree-sitter)"] = query_s
    _, c, _ = timed(lambda: subprocess.run([sys.executable, "-c", "import chromadb"], check=True))
    res["parts"]["import chromadb (a process of its own)"] = c
    import chromadb

    from repomem.adapters.embed import HashEmbedder

    got = chromadb.PersistentClient(str(store)).get_collection("repomem_versions").get(
        include=["metadatas"])
    ids, metas = list(got["ids"]), [dict(m) for m in got["metadatas"] or []]
    # the closed versions, which the store keeps in its SQLite file (storage/closedversions.py):
    # written to Chroma here too, so the floor stays the one of "every version a Chroma row"
    import sqlite3

    from repomem.storage.closedversions import ClosedVersions

    con = sqlite3.connect(store / "records.sqlite3")
    try:
        closed_ids, closed_metas, _ = ClosedVersions(con, "versions").get()
    finally:
        con.close()
    ids, metas = ids + closed_ids, metas + closed_metas
    docs = []
    for m in metas:
        p = json.loads(str(m["payload"]))
        docs.append(f"{p['subject']}. {p['purpose']}. {p['value']}. {p['path']}")
    res["fact_versions"] = len(ids)
    vecs, c, _ = timed(lambda: HashEmbedder().embed(docs))
    res["parts"]["embed every fact version (hash embedder)"] = c
    col = chromadb.PersistentClient(str(work / f"floor-{repo.name}")).get_or_create_collection(
        "floor", metadata={"hnsw:space": "cosine"})

    def write():
        for i in range(0, len(ids), 1000):
            col.upsert(ids=ids[i:i + 1000], metadatas=metas[i:i + 1000],
                       embeddings=vecs[i:i + 1000])
    _, c, _ = timed(write)
    res["parts"]["write every fact version to Chroma"] = c
    res["cpu_s"] = sum(res["parts"].values())
    res["cores"] = os.cpu_count() or 1
    res["floor_s"] = res["cpu_s"] / res["cores"]
    res["floor_ratio"] = res["floor_s"] / res["git_log_s"]
    return res


def main(argv: list[str]) -> int:
    from bench.speed import sources

    with tempfile.TemporaryDirectory(prefix="repomem-floor-") as tmp:
        for src in sources(argv):
            r = measure(src, Path(tmp))
            print(f"## {r['repo']}: {r['versions']} source versions ({r['mb']} MB), "
                  f"{r['fact_versions']} fact versions")
            print(f"git log -p --first-parent: {r['git_log_s']:.3f} s (10x = "
                  f"{10 * r['git_log_s']:.2f} s)")
            for label, s in r["parts"].items():
                print(f"  {label}: {s:.2f} s CPU")
            print(f"floor: {r['cpu_s']:.2f} s CPU / {r['cores']} cores = {r['floor_s']:.2f} s "
                  f"= {r['floor_ratio']:.1f}x git log -p (before any fact is built)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The layering of docs/ARCHITECTURE.md, checked on the real import graph (grimp, the engine of
import-linter).  grimp reads every import statement, those inside functions included, so a lazy
import counts like a module-level one.

Rules:
* no import circle between repomem modules;
* ``repomem.core`` imports nothing from another repomem subpackage;
* the read path (queries, context, ranking, the agent path, the view a reader folds) reaches
  none of the write path (ingestion, commit mining, the miners, the hooks' worker, the hooks, the
  watcher, the daemon) nor the integrations;
* the benchmarks (the checkout's ``bench`` package) have no import circle either; the product
  never imports them; their ground truth (``bench.realtruth``) imports nothing from repomem nor
  from the rest of ``bench``.
"""

from __future__ import annotations

import sys
import textwrap

import grimp

PACKAGE = "repomem"
CORE = "repomem.core"
READ_PATH = ["repomem.service.query", "repomem.service.context", "repomem.service.rank",
             "repomem.service.lexical", "repomem.service.question", "repomem.service.agents",
             "repomem.service.view"]
WRITE_PATH = ["repomem.service.ingest", "repomem.service.pipeline", "repomem.service.shallow",
              "repomem.service.current",
              "repomem.miners",
              "repomem.integrations"]
# Imports of the write path that the read path makes on purpose (removed before the check): none.
# What a reader needs from the write path or the integrations at times (mining a branch's own
# commits, a lost tree view, the watcher's overlay) comes through repomem/service/ports.py.
ALLOWED: list[tuple[str, str]] = []


def violations(graph, package: str = PACKAGE, core: str = CORE, read: list[str] | None = None,
               write: list[str] | None = None, allowed: list[tuple[str, str]] = ()) -> list[str]:
    """Every broken rule, one line each (empty: the layering holds)."""
    out = []
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    for a in modules:  # a circle: an import a -> b while b reaches a again
        for b in sorted(graph.find_modules_directly_imported_by(a)):
            if b.startswith(package) and graph.chain_exists(importer=b, imported=a):
                back = graph.find_shortest_chain(importer=b, imported=a)
                out.append("circle: " + " -> ".join((a, *back)))
    for a in modules:
        if a == core or a.startswith(core + "."):
            for b in sorted(graph.find_modules_directly_imported_by(a)):
                if b.startswith(package + ".") and not (b == core or b.startswith(core + ".")):
                    out.append(f"core imports an edge: {a} -> {b}")
    for importer, imported in allowed:
        graph.remove_import(importer=importer, imported=imported)
    for r in read or []:
        for w in write or []:
            for target in [w, *sorted(graph.find_descendants(w))]:
                chain = graph.find_shortest_chain(importer=r, imported=target)
                if chain:
                    out.append("read path imports the write path: " + " -> ".join(chain))
    return out


def test_repomem_layering_holds():
    graph = grimp.build_graph(PACKAGE)
    assert violations(graph, read=READ_PATH, write=WRITE_PATH, allowed=ALLOWED) == []


def test_the_benchmarks_have_no_circle_and_stay_outside_the_product():
    graph = grimp.build_graph("bench", PACKAGE, cache_dir=None)
    assert "bench.realtruth.functions" in graph.modules  # the whole tree is read
    assert violations(graph, "bench", "bench.realtruth") == []
    product = sorted(m for m in graph.modules if m == PACKAGE or m.startswith(PACKAGE + "."))
    assert [(a, b) for a in product for b in graph.find_modules_directly_imported_by(a)
            if b == "bench" or b.startswith("bench.")] == []
    assert [(a, b) for a in sorted(graph.find_descendants("bench.realtruth"))
            for b in graph.find_modules_directly_imported_by(a)
            if b == PACKAGE or b.startswith(PACKAGE + ".")] == []


def test_the_checker_finds_a_circle_a_core_edge_and_a_read_to_write_import(tmp_path, monkeypatch):
    """The same checker on a small fake package built here, which breaks each rule once."""
    files = {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/model.py": "from fakepkg.adapters import net\n",  # core -> an edge
        "adapters/__init__.py": "",
        "adapters/net.py": "def f():\n    from fakepkg.adapters import disk\n",  # a lazy import
        "adapters/disk.py": "import fakepkg.adapters.net\n",  # ... that closes a circle
        "service/__init__.py": "",
        "service/query.py": "from fakepkg.service import view\n",
        "service/view.py": "from fakepkg.service.ingest import go\n",  # read -> write, via view
        "service/ingest.py": "from fakepkg.core import model\n\n\ndef go():\n    pass\n",
    }
    for name, text in files.items():
        path = tmp_path / "fakepkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("fakepkg", cache_dir=None)
    found = violations(graph, "fakepkg", "fakepkg.core", ["fakepkg.service.query"],
                       ["fakepkg.service.ingest"])
    assert "circle: fakepkg.adapters.disk -> fakepkg.adapters.net -> fakepkg.adapters.disk" in found
    assert "core imports an edge: fakepkg.core.model -> fakepkg.adapters.net" in found
    assert ("read path imports the write path: fakepkg.service.query -> fakepkg.service.view -> "
            "fakepkg.service.ingest") in found
    # an allowed edge is not reported; the other rules still are
    graph = grimp.build_graph("fakepkg", cache_dir=None)
    found = violations(graph, "fakepkg", "fakepkg.core", ["fakepkg.service.query"],
                       ["fakepkg.service.ingest"],
                       allowed=[("fakepkg.service.view", "fakepkg.service.ingest")])
    assert not any(x.startswith("read path") for x in found) and len(found) == 3
    sys.modules.pop("fakepkg", None)


def test_the_composition_root_installs_the_read_paths_miners_lazily():
    """A fresh process: the service layer alone has no miner (one clear error); importing the
    command line installs them (repomem.integrations.wiring) without loading a parser, so a cold
    ask stays light."""
    import subprocess

    code = textwrap.dedent("""
        import sys
        from repomem.core.errors import RepomemError
        from repomem.service import ports, view
        try:
            ports.mining()
        except RepomemError as e:
            print("alone:", e)
        import repomem.cli
        print("cli:", type(ports.mining()).__name__, ports.overlay().__name__)
        print("loaded:", sorted(m for m in sys.modules if m.startswith(("repomem.miners", "tree_sitter"))))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["alone: this process has no miner to index new commits with",
                                "cli: CommitMining load_overlay", "loaded: []"]

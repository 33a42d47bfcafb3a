"""Embedders and miners are found by name: registered in-process, or provided by another installed
package through the entry-point groups ``repomem.embedders`` and ``repomem.miners``."""

from __future__ import annotations

import textwrap

import pytest

from repomem import miners
from repomem.adapters.embed import EMBEDDERS, HashEmbedder, get_embedder, register_embedder
from repomem.core.errors import RepomemError
from repomem.service.ingest import ingest
from repomem.service.query import ask, facts
from repomem.service.repo import Repo
from tests.conftest import commit


class CountingEmbedder(HashEmbedder):
    """The hash embedder under another name, counting the texts it embeds."""

    name = "counting-hash"

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.texts += texts
        return super().embed(texts)


def test_a_registered_embedder_is_used_by_ingest_and_ask(new_repo, tmp_path, request):
    emb = CountingEmbedder()
    register_embedder(CountingEmbedder.name, lambda arg: emb)
    request.addfinalizer(lambda: EMBEDDERS.pop(CountingEmbedder.name, None))
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"config/production.toml": "[server]\nport = 8000\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"config/production.toml": "[server]\nport = 8080\n"})
    r = Repo.open(repo, store=tmp_path / "s", embedder=CountingEmbedder.name)
    ingest(r, all_history=True)
    assert r.store.get_meta("embedder") == CountingEmbedder.name
    assert any("port" in t for t in emb.texts)  # the view's documents
    emb.texts.clear()
    res = ask(Repo.open(repo, store=tmp_path / "s"), "what port does production listen on?")
    assert res["answer"] == "8080"
    assert emb.texts == ["what port does production listen on?"]  # the store's embedder, by name


def test_unknown_embedders_are_one_clear_error():
    for spec in ("nope", "hash:x", "ollama"):
        with pytest.raises(RepomemError, match=f"unknown embedder: {spec}$"):
            get_embedder(spec)


@pytest.fixture
def plugin(tmp_path, monkeypatch, request):
    """An installed distribution (a dist-info folder on sys.path) providing an embedder and a
    miner through entry points, as a third-party package would."""
    site = tmp_path / "site"
    (site / "toyplug-0.1.dist-info").mkdir(parents=True)
    (site / "toyplug-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: toyplug\n"
                                                             "Version: 0.1\n")
    (site / "toyplug-0.1.dist-info" / "entry_points.txt").write_text(
        "[repomem.embedders]\ntoy = toyplug:make_embedder\n\n[repomem.miners]\ntoy = toyplug:MINER\n")
    (site / "toyplug.py").write_text(textwrap.dedent('''
        from repomem.adapters.embed import HashEmbedder
        from repomem.core.model import CONFIG, Fact


        class ToyEmbedder(HashEmbedder):
            def __init__(self, arg):
                super().__init__()
                self.name = "toy" if arg is None else f"toy:{arg}"


        def make_embedder(arg):
            return ToyEmbedder(arg)


        class ToyMiner:
            name = "toy"

            def accepts(self, path):
                return path.endswith(".toy")

            def mine(self, path, text):
                out = []
                for n, line in enumerate(text.splitlines(), 1):
                    key, _, value = line.partition(" is ")
                    out.append(Fact(key=f"config:{path}:{key}", kind=CONFIG, subject=key, value=value,
                                    path=path, line=n, text=line, purpose=f"{key} setting"))
                return out


        MINER = ToyMiner()
    '''))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(miners, "_MINERS", None)  # read the entry points again (restored after)
    request.addfinalizer(lambda: [EMBEDDERS.pop(n, None) for n in ("toy",)])
    return site


def test_entry_points_provide_embedders_and_miners(plugin, new_repo, tmp_path):
    assert get_embedder("toy").name == "toy" and get_embedder("toy:big").name == "toy:big"
    assert "toy" in [m.name for m in miners.all_miners()]
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00Z", "a", {"app.toy": "colour is blue\n"})
    commit(repo, "2026-01-02T00:00:00Z", "b", {"app.toy": "colour is green\n"})
    r = Repo.open(repo, store=tmp_path / "s", embedder="toy")
    ingest(r, all_history=True)
    got = {f["key"]: f["value"] for f in facts(r)["facts"]}
    assert got == {"config:app.toy:colour": "green"}
    assert ask(r, "which colour?")["answer"] == "green"


def test_register_miner_replaces_a_builtin_by_name(monkeypatch):
    monkeypatch.setattr(miners, "_MINERS", None)
    monkeypatch.setattr(miners, "REGISTERED", {})
    before = miners.mine_file("a.env", b"PORT=1\n")
    assert [f.value for f in before] == ["1"]

    class Quiet:
        name = "config"  # the built-in settings miner's name

        def accepts(self, path):
            return False

        def mine(self, path, text):
            return []

    miners.register_miner(Quiet())
    assert miners.mine_file("a.env", b"PORT=1\n") == []
    assert [m.name for m in miners.all_miners()].count("config") == 1

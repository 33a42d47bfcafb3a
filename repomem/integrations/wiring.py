"""The composition root's part of the read path: the miners and the watcher's overlay, installed
into ``repomem.service.ports`` (the read path does not import them; see that module).

Importing ``repomem.integrations`` installs them.  The write path and the overlay are imported
only when a reader really mines (a branch past a server's view, a tree view whose fold state is
lost) or a watcher keeps an overlay, so a cold ``repomem ask`` still loads no parser.
"""

from __future__ import annotations

from pathlib import Path

from repomem.service import ports


class CommitMining:
    """ports.Mining with repomem's own miners."""

    def commits(self, root: Path, commits: list) -> list:
        from repomem.adapters import git
        from repomem.miners.mining import CommitMiner

        with CommitMiner(root) as miner:
            changes = git.changes(root, commits)
            return [miner.mine(c, changes.get(c.sha, [])) for c in commits]

    def tree(self, root: Path, chain: list):
        from repomem.service import current

        return current.tree_ledger(root, chain)


def load_overlay(r) -> list[dict] | None:
    from repomem.integrations import overlay

    return overlay.load(r)


def install() -> None:
    ports.install(mining=CommitMining(), overlay=load_overlay)

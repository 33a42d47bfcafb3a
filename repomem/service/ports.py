"""What the read path needs, at times, from layers it must not import: supplied by the process's
composition root.

Two readers mine: a reader of a Chroma server whose HEAD is a few commits past the published view
folds the branch's own commits (``view.provisional_snapshot``), and a writer that folds a tree
view whose fold state is lost mines HEAD's tree again (``view.sync_view``).  The agent context
shows the watcher's uncommitted edits (``agents.load_overlay``), which the integrations layer
keeps.  The read path imports neither the miners nor the integrations (tests/project/test_import_graph.py
checks it), so whoever assembles a process installs them here: importing ``repomem.integrations``
does (``repomem.integrations.wiring``), and the command line, the workers, the agent hooks and the
test suite import it.  Nothing here imports anything heavy.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from repomem.core.errors import RepomemError

if TYPE_CHECKING:
    from repomem.adapters.git import CommitInfo
    from repomem.core.ledger import Ledger
    from repomem.core.records import CommitRecord


class Mining(Protocol):
    def commits(self, root: Path, commits: list[CommitInfo]) -> list[CommitRecord]:
        """One record per commit, in order, each against its first parent."""
        ...

    def tree(self, root: Path, chain: list[CommitInfo]) -> Ledger:
        """The ledger of the tree of ``chain[-1]`` (chain: its first-parent history, oldest
        first), each version dated by the last commit that touched its file."""
        ...


OverlayLoader = Callable[[Any], "list[dict] | None"]  # (opened Repo) -> uncommitted facts

_mining: Mining | None = None
_overlay: OverlayLoader | None = None


def install(mining: Mining | None = None, overlay: OverlayLoader | None = None) -> None:
    """Supply the miners and the overlay's loader (each left as it is when None)."""
    global _mining, _overlay
    _mining = mining or _mining
    _overlay = overlay or _overlay


def mining() -> Mining:
    if _mining is None:
        raise RepomemError("this process has no miner to index new commits with",
                           hint="import repomem.integrations before using the service layer")
    return _mining


def overlay() -> OverlayLoader | None:
    return _overlay

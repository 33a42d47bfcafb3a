"""Install, remove or inspect the git hooks that keep the index fresh.

The hooks (post-commit, post-merge, post-rewrite, post-checkout) only note that indexing is due
and start a detached worker: 'git commit' never waits for repomem, and never fails because of it.
A hook that was already there is kept as <hook>.legacy and still runs.

  repomem hooks install          (also done by 'repomem init' unless --no-hooks)
  repomem hooks status
  repomem hooks uninstall        (restores the earlier hooks)
  repomem hooks run post-commit  (for a hook manager or core.hooksPath folder to call)"""

from __future__ import annotations

from typing import Callable

from repomem.cli import common
from repomem.core.termsafe import echo

HELP = "install, remove or inspect the git hooks"


def add_arguments(p) -> None:
    p.add_argument("action", choices=["install", "uninstall", "status", "run"])
    p.add_argument("hook", nargs="?", default="manual", help="for 'run': the hook's name")
    common(p)


def run(args) -> int:
    from repomem.integrations import hooks

    if args.action == "run":
        from repomem.integrations import worker

        argv = [args.hook, "--repo", args.repo] + (["--store", args.store] if args.store else [])
        return worker.main(argv)
    fn: dict[str, Callable[[str], list[str]]] = {"install": hooks.install, "uninstall": hooks.uninstall,
                                                 "status": hooks.status}
    if args.action == "install" and args.store:  # recorded as repomem.store for the shims
        from repomem.adapters import git
        from repomem.storage.storepath import resolve_store_path

        store = resolve_store_path(git.discover(args.repo), args.store)
        fn["install"] = lambda repo: hooks.install(repo, store=store)
    for line in fn[args.action](args.repo):
        echo(line)
    return 0

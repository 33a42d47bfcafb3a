"""The only command-line entry point: argparse, one module per command in repomem.cli.commands.

Heavy libraries (chromadb, tree-sitter, watchdog, mcp) are imported only inside the commands
that need them, so ``--help`` and the git hook shims start fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

import repomem.integrations  # noqa: F401 (installs the read path's miners: service/ports.py)
from repomem import version
from repomem.core.errors import RepomemError, explain
from repomem.core.termsafe import SafeFormatter, echo

# The core commands first in --help; any other module in repomem.cli.commands follows,
# alphabetically.  Each module has HELP, add_arguments(p), run(args); NAME overrides the
# command name (default: the module name with _ as -).
CORE = ["init", "ingest", "ask", "facts", "history", "changes", "context", "demo"]


def command_modules() -> list[str]:
    import pkgutil

    import repomem.cli.commands as pkg

    found = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_"))
    return [m for m in CORE if m in found] + [m for m in found if m not in CORE]


def common(p: argparse.ArgumentParser, json_flag: bool = False) -> None:
    p.add_argument("--repo", default=".", metavar="DIR", help="the git work tree (default: .)")
    p.add_argument("--store", default=None, metavar="DIR",
                   help="store location (default: $REPOMEM_STORE, else <git dir>/repomem)")
    p.add_argument("--chroma", default=None, metavar="URL",
                   help="use the Chroma server at URL (default: $REPOMEM_CHROMA_URL; token: "
                        "$REPOMEM_CHROMA_TOKEN); without it, the embedded store")
    p.add_argument("--name", default=None, metavar="NAME",
                   help="the repository's name on the server (default: its origin URL)")
    if json_flag:
        p.add_argument("--json", action="store_true", help="machine-readable output")


class Parser(argparse.ArgumentParser):
    """argparse's usage errors as every other error: one line, a hint, exit 1 (not its usage
    block and exit 2)."""

    def error(self, message: str):  # type: ignore[override]
        raise SystemExit(_report(RepomemError(
            message, hint=f"see '{self.prog} --help' for the arguments it takes")))


# Arguments that name files: their undecodable bytes are the file system's, kept as they are.
_PATH_METAVARS = ("DIR", "PATH", "PNG")
_MAX_NUMBER = 10**6  # seconds: a delay beyond this is a typo, not a request


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Bad input in any argument is one line and a hint (exit 1), before a command runs.
    Text arguments that are not paths get their undecodable bytes (the shell passes them
    through, Python keeps them as surrogates) as ``\\xNN`` escapes: the form git paths, and so
    keys, are stored in (``repomem.adapters.git.path_text``), and text every library accepts."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    cmd = sub.choices.get(args.command) if sub is not None and args.command else None
    for action in (cmd or parser)._actions:
        value = getattr(args, action.dest, None)
        flag = action.option_strings[-1] if action.option_strings else action.dest
        if isinstance(action, argparse._StoreAction) and action.nargs is None and \
                isinstance(value, list):  # argparse's own quirk: --as-of=-- gives []
            raise RepomemError(f"{flag} needs a value",
                               hint=f"see 'repomem {args.command} --help'")
        if action.type is float and isinstance(value, float) and not 0 <= value <= _MAX_NUMBER:
            raise RepomemError(f"{flag} must be a number from 0 to {_MAX_NUMBER}, not {value}",
                               hint=f"see 'repomem {args.command} --help'")  # nan, inf, -1
        if action.metavar in _PATH_METAVARS:
            continue
        if isinstance(value, str):
            setattr(args, action.dest, _text(value))
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            setattr(args, action.dest, [_text(v) for v in value])


def _text(value: str) -> str:
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


class _Version(argparse.Action):
    """--version, read from the package's metadata only when asked: importlib.metadata costs
    every other command ~20 ms of its start (more on a busy machine)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"repomem {version()}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with COMMAND (a command line's first word), only that command's
    sub-parser when it names one: the others' modules are not imported (a cold ``repomem ask``
    would otherwise import every command, agent_config among them)."""
    parser = Parser(
        prog="repomem",
        description="The current truth about a git repository, and its dated history.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log skipped files")
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modnames = command_modules() if command is None else _module_of(command)
    if not modnames:  # not a command: the whole parser says so, as it lists them
        modnames = command_modules()
    for modname in modnames:
        mod = importlib.import_module(f"repomem.cli.commands.{modname}")
        name = getattr(mod, "NAME", modname.replace("_", "-"))
        p = sub.add_parser(name, help=mod.HELP, description=mod.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def _module_of(command: str) -> list[str]:
    """[the module of COMMAND] when one by its name has it as its name (``ask``, ``rebuild``),
    else [] (an option, a typo, a command whose module is named otherwise)."""
    import importlib.util

    modname = command.replace("-", "_")
    if not modname.isidentifier() or modname.startswith("_") or \
            importlib.util.find_spec(f"repomem.cli.commands.{modname}") is None:
        return []
    mod = importlib.import_module(f"repomem.cli.commands.{modname}")
    return [modname] if getattr(mod, "NAME", command) == command else []


def main(argv: list[str] | None = None) -> int:
    """Run the command of ARGV (default: this process's command line) and return its exit
    status.  A cold ``ask`` or ``context`` of the command line ends its process here (see
    _exit_now)."""
    args_in = sys.argv[1:] if argv is None else argv
    status = _main(args_in)
    if argv is None and args_in[:1] in (["ask"], ["context"]):
        _exit_now(status)
    return status


def _exit_now(status: int) -> None:
    """End a process that only read the snapshot without the interpreter's tear-down: freeing
    every module and object (numpy's, the snapshot's rows, the compiled patterns) costs a cold
    ``ask`` ~50 ms of CPU, a fifth of its whole time, and nothing needs closing (no store of
    record was opened: chromadb not imported; the slot lock goes with the process).  Its output
    is flushed first; a process that opened the store of record ends the ordinary way."""
    if "chromadb" in sys.modules:
        return
    try:
        sys.stdout.flush()
    except OSError:  # a closed pipe: what was left unwritten has no reader
        pass
    try:
        sys.stderr.flush()
    except OSError:
        pass
    logging.shutdown()
    os._exit(status)


def _main(args_in: list[str]) -> int:
    if args_in[:1] == ["hook"] and len(args_in) == 2 and args_in[1] == "claude-code":
        # an agent's hook runs on every prompt: none of the other commands' imports
        from repomem.integrations.claude_code import run as claude_code

        return claude_code()
    parser = build_parser(args_in[0] if args_in else None)
    args = parser.parse_args(args_in)
    try:
        check_arguments(parser, args)
    except RepomemError as e:
        return _report(e)
    log_handler = logging.StreamHandler()  # log lines name files: escape them like output
    log_handler.setFormatter(SafeFormatter("repomem: %(message)s"))
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        handlers=[log_handler])
    if not getattr(args, "_run", None):
        parser.print_help()
        return 1
    # The server (repomem/remote.py) is passed on through the environment: every store this
    # process opens (the MCP server's, the watcher's) and the workers it starts use it too.
    for opt, var in (("chroma", "REPOMEM_CHROMA_URL"), ("name", "REPOMEM_NAME")):
        if getattr(args, opt, None):
            os.environ[var] = getattr(args, opt)
    if args.command in ("ask", "context"):
        # One question's numpy work is too small for threads: OpenBLAS would start one per
        # core at numpy's import (~80 ms of CPU spinning, half a cold answer's on 2 cores).
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    warm = _warm(args)
    if warm is not None:  # the store's warm answerer answered: no numpy, no snapshot load here
        out, err, status = warm
        try:
            sys.stderr.write(err)
            sys.stdout.write(out)
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return status
    try:
        if args.command == "ask":  # cold processes take turns (repomem/cli/slots.py)
            from repomem.cli.slots import turn

            with turn():
                return int(args._run(args) or 0)
        return int(args._run(args) or 0)
    except RepomemError as e:
        return _report(e)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:  # a bug: one line, the traceback only on request
        known = explain(e, *_store_of(args))
        url = getattr(args, "chroma", None) or os.environ.get("REPOMEM_CHROMA_URL")
        if known is None and url:
            from repomem.storage.remote import explain_remote, from_server

            if from_server(e):
                known = explain_remote(e, url)
        if known is not None:
            return _report(known)
        if os.environ.get("REPOMEM_DEBUG"):
            raise
        echo(f"repomem: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        print("hint: rerun with REPOMEM_DEBUG=1 for the traceback, and report it", file=sys.stderr)
        return 3


def _warm(args) -> tuple[str, str, int] | None:
    """``ask`` and ``context`` from the store's warm answerer when one is running
    (repomem/integrations/answerer.py): the same bytes the command prints itself, without an
    interpreter's worth of imports and the snapshot's load.  None: answer here (no answerer, a
    server store, --llm, --verbose, or the answerer declined)."""
    from repomem.integrations import answerer

    fields = answerer.CLI_FIELDS.get(args.command)
    if fields is None or args.verbose or getattr(args, "llm", None) or \
            getattr(args, "chroma", None) or getattr(args, "name", None):
        return None
    try:
        return answerer.warm_cli(args.command, {k: getattr(args, k) for k in fields}, args.repo,
                                 args.store)
    except Exception:  # the warm path is an optimisation: anything odd, the command answers
        return None


def _report(e: RepomemError) -> int:
    echo(f"repomem: error: {e}", file=sys.stderr)  # may quote a path or value
    if e.hint:
        echo(f"hint: {e.hint}", file=sys.stderr)
    return 1


def _store_of(args) -> tuple[str | None, str | None]:
    """(the store path, the command that rebuilds it) for an error's hint; (None, None) when
    they cannot be told."""
    import shlex

    try:
        from repomem.adapters import git
        from repomem.storage.storepath import resolve_store_path

        where = git.discover(getattr(args, "repo", "."))
        store = resolve_store_path(where, getattr(args, "store", None))
    except Exception:
        return None, None
    opt = f" --store {shlex.quote(str(store))}" if getattr(args, "store", None) else ""
    moved = shlex.quote(f"{store}.damaged")
    return str(store), (f"mv {shlex.quote(str(store))} {moved} && repomem init --repo "
                        f"{shlex.quote(str(where.root))}{opt}")


if __name__ == "__main__":
    sys.exit(main())

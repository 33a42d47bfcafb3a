"""The warm answerer: a long-lived process per store that answers the agent hook's context
requests over a Unix domain socket, so a hook call costs a connection instead of an interpreter
that imports numpy and loads the snapshot (docs/agents.md, "The warm answerer").  It answers
``repomem ask`` and ``repomem context`` too (op ``cli``: the command's own output, computed by
its own function from the snapshot alone; anything that would open Chroma or write the view
is declined and the command answers it itself; docs/asking.md).

Where it runs: in the watcher (``repomem watch``, ``repomem daemon start``) for as long as the
watcher runs; else the first hook call that finds none starts one, detached, and answers its own
request the cold way; that one exits after ``REPOMEM_ANSWERER_IDLE`` seconds without a request
(default 600).  One per store: it holds ``<store>/answerer.lock``.  ``REPOMEM_ANSWERER=0``
turns the warm path off (no connection, no start).

The answer is the cold path's, computed by the same function (:func:`context_answer`) in the
warm process; the snapshot is reread whenever its file changed (``viewcache.load_search``
compares the file's identity on every request), so a commit's value shows as soon as the
snapshot has it.

This module's top level is the hook's client and imports the standard library only: the
hook reaches the socket before numpy, chromadb or repomem.service load.  Anything unexpected
(no socket, a timeout, a refusal, another store or another repomem answering) makes the client
return None, and the hook answers in-process.

Trust, both ways: the socket is 0600 (bound under a temporary name, then renamed into place),
in the store's folder or, when that path is too long for ``AF_UNIX``, in a private folder under
``$XDG_RUNTIME_DIR`` or ``/tmp``; each side checks the other's uid (``SO_PEERCRED``) where the
kernel says it, and the client takes an answer only from a server that names the same store and
the same repomem code.  A request is one JSON line of at most ``MAX_REQUEST`` bytes, read within
``READ_TIMEOUT`` seconds: garbage, an oversized request or a client that never sends costs the
server one closed connection, never its life.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import socket

PROTOCOL = 1
SOCKET_NAME = "answer.sock"
LOCK_NAME = "answerer.lock"
LOG_NAME = "answerer.log"
MAX_REQUEST = 1 << 20  # bytes: a prompt beyond this is answered the cold way
MAX_REPLY = 4 << 20
READ_TIMEOUT = 2.0  # seconds the server waits for a whole request
DEFAULT_TIMEOUT = 0.5  # seconds the client waits for connection and answer together
DEFAULT_IDLE = 600  # seconds without a request before a hook-started answerer exits
MAX_CLIENTS = 16  # connections served at once; more are closed at once
TICK = 1.0  # seconds between the server's checks of its socket, store, code and idle time
_SUN_PATH = 100  # bytes: sun_path is 108 on Linux, 104 on macOS; room for the temporary name


# -- shared by client and server (standard library only) -------------------------------------
def enabled() -> bool:
    return os.environ.get("REPOMEM_ANSWERER", "1").strip().lower() not in ("0", "no", "off", "false")


def code_identity() -> str:
    """Which repomem code this process runs: the package folder and the newest modification of
    its modules.  An upgrade or an edit changes it, so an answerer started by older code is
    never asked (it would render differently)."""
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    newest, count, todo = 0, 0, [pkg]
    while todo:
        with os.scandir(todo.pop()) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        todo.append(e.path)
                elif e.name.endswith(".py"):
                    newest, count = max(newest, e.stat().st_mtime_ns), count + 1
    return f"{pkg}:{count}:{newest}"


def _private_dir(path: str, create: bool, missing_ok: bool = False) -> bool:
    """Whether PATH is a folder of ours that nobody else may enter (made so when CREATE; one
    that does not exist yet when MISSING_OK: a client's view, the answerer makes it)."""
    if create:
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return False
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return missing_ok
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def socket_path(store: str, create: bool = False) -> str | None:
    """The socket of STORE's answerer: ``<store>/answer.sock``, or, when that is too long for
    ``AF_UNIX``, ``repomem-<hash of the store path>.sock`` in ``$XDG_RUNTIME_DIR`` (private by
    definition) or in ``/tmp/repomem-<uid>/``.  None when no private place fits."""
    own = os.path.join(store, SOCKET_NAME)
    if len(os.fsencode(own)) <= _SUN_PATH:
        return own
    import hashlib

    name = "repomem-" + hashlib.sha256(os.fsencode(store)).hexdigest()[:20] + ".sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    for base in ([runtime] if runtime else []) + [os.path.join("/tmp", f"repomem-{os.getuid()}")]:
        path = os.path.join(base, name)
        ours = base != runtime  # $XDG_RUNTIME_DIR is the session's: never made here
        if len(os.fsencode(path)) <= _SUN_PATH and \
                _private_dir(base, create and ours, missing_ok=ours and not create):
            return path
    return None


def lock_path(store: str) -> str:
    return os.path.join(store, LOCK_NAME)


def _peer_uid(sock: socket.socket) -> int | None:
    """The uid of the process at the other end, where the kernel tells (Linux); else None."""
    import socket

    opt = getattr(socket, "SO_PEERCRED", None)
    if opt is None:
        return None
    import struct

    try:
        _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, opt,
                                                              struct.calcsize("3i")))
    except OSError:
        return None
    return uid


def _read_line(sock: socket.socket, limit: int, timeout: float) -> bytes | None:
    """One newline-ended message within TIMEOUT seconds in all, or None (closed early, too
    long); a peer that trickles bytes times out like one that sends none."""
    buf = bytearray()
    deadline = time.monotonic() + timeout
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no whole message in time")
        sock.settimeout(left)
        chunk = sock.recv(65536)
        if not chunk:
            return None
        buf += chunk
        if len(buf) > limit:
            return None
    return bytes(buf[:buf.index(b"\n")])


def _exchange(path: str, request: dict, timeout: float) -> dict | None:
    """Send REQUEST to the socket at PATH, return the reply; None on any failure or distrust."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.getuid():  # not ours: never trusted
        return None
    data = json.dumps(request).encode() + b"\n"  # ASCII: any str (lone surrogates too) round-trips
    if len(data) > MAX_REQUEST:
        return None
    import socket  # (only once a socket is there: a cold command without an answerer skips it)

    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        deadline = time.monotonic() + timeout
        s.settimeout(timeout)
        s.connect(path)
        uid = _peer_uid(s)
        if uid is not None and uid != os.getuid():
            return None
        s.sendall(data)
        line = _read_line(s, MAX_REPLY, deadline - time.monotonic())
        reply = json.loads(line) if line is not None else None
    except (OSError, ValueError):
        return None
    finally:
        s.close()
    return reply if isinstance(reply, dict) and reply.get("protocol") == PROTOCOL else None


# -- the client: what the hook asks before it would import anything heavy --------------------
def store_for(repo: str) -> str | None:
    """The store every command would use for REPO, found as ``storepath.resolve_store_path``
    finds it ($REPOMEM_STORE, else the ``repomem.store`` git config, else ``<git dir>/repomem``)
    with two git calls and no repomem import; None when it cannot be told (the hook then answers
    the cold way, which reports nothing either).  The answerer checks the result: a request
    naming another store than its own is refused."""
    if os.environ.get("REPOMEM_CHROMA_URL"):  # a server's store: its snapshot is kept in sync
        return None  # by the cold path (serverview.snapshot_ready)
    given = os.environ.get("REPOMEM_STORE")
    if given:
        return os.path.realpath(os.path.abspath(os.path.expanduser(given)))
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in (
        "GIT_EXEC_PATH", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")}  # as adapters.git does
    try:  # both at once: the hook waits for the slower one only
        calls = [subprocess.Popen(["git", "-C", repo, *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env)
                 for args in (("rev-parse", "--path-format=absolute", "--git-common-dir"),
                              ("config", "--get", "repomem.store"))]
        (common, _), (conf, _) = (c.communicate(timeout=2) for c in calls)
    except (OSError, ValueError, subprocess.SubprocessError):  # (ValueError: a NUL in the path)
        return None
    if calls[0].returncode != 0:
        return None
    top = os.path.realpath(common.decode().split("\n")[0])
    recorded = conf.decode("utf-8", "replace").strip()
    if not recorded:
        return os.path.join(top, "repomem")
    return os.path.realpath(os.path.abspath(os.path.join(top, os.path.expanduser(recorded))))


def _timeout() -> float:
    """How long a client waits for the answerer (REPOMEM_ANSWERER_TIMEOUT seconds)."""
    try:
        return float(os.environ.get("REPOMEM_ANSWERER_TIMEOUT", DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT


def _answerer_of(repo: str, store: str | None = None) -> tuple[str, str, str] | None:
    """(repo, store, socket path) of the answerer a client in REPO would ask (STORE: a --store
    given, else found as every command finds it); None when answerers are off or there is no
    store or usable socket path."""
    if not enabled():
        return None
    repo = os.path.abspath(repo)
    store = os.path.realpath(os.path.abspath(os.path.expanduser(store))) if store else \
        store_for(repo)
    if store is None or not os.path.isdir(store):
        return None
    path = socket_path(store)
    return (repo, store, path) if path is not None else None


def _send(path: str, store: str, fields: dict) -> tuple[dict | None, bool]:
    """(reply, ours) of the answerer at PATH to a request of FIELDS: reply None when none
    answered in time; ours when it answered for STORE and this code."""
    if not os.path.lexists(path):  # none runs: not even the code's identity is needed
        return None, False
    code = code_identity()
    reply = _exchange(path, {"protocol": PROTOCOL, "code": code, "store": store, **fields},
                      max(0.01, _timeout()))
    return reply, reply is not None and reply.get("store") == store and reply.get("code") == code


def warm_context(repo: str, prompt: str, budget: int) -> str | None:
    """The context block from STORE's warm answerer; None when there is none to ask (then one
    is started for the next call) or it did not answer as expected."""
    found = _answerer_of(repo)
    if found is None:
        return None
    repo, store, path = found
    reply, ours = _send(path, store, {"op": "context", "repo": repo, "prompt": prompt, "budget": budget})
    if reply is None:
        start_detached(store, repo)
        return None
    if not ours or not isinstance(reply.get("text"), str):
        return None
    return reply["text"]


# Environment variables that change no answer: the client's and the answerer's may differ.
_ENV_UNUSED = frozenset({"REPOMEM_ANSWERER", "REPOMEM_ANSWERER_TIMEOUT", "REPOMEM_ANSWERER_IDLE",
                         "REPOMEM_ASK_SLOTS", "REPOMEM_HOOK_BUDGET", "REPOMEM_HOOK_TIMEOUT",
                         "REPOMEM_STORE", "REPOMEM_DEBUG"})
# The command-line commands the answerer answers, and the type of each argument they take
CLI_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "ask": {"question": str, "as_of": (str, type(None)), "k": int, "json": bool},
    "context": {"question": str, "budget": int}}


def answer_env() -> dict[str, str]:
    """The repomem settings of this process's environment that may change an answer
    (REPOMEM_RANK_WEIGHTS, ...): an answerer answers only a client whose are the same."""
    return {k: v for k, v in os.environ.items()
            if k.startswith("REPOMEM_") and k not in _ENV_UNUSED}


def warm_cli(command: str, fields: dict, repo: str, store: str | None) -> tuple | None:
    """(stdout, stderr, exit status) of ``repomem COMMAND`` (ask, context) from the store's warm
    answerer, when one is running: what the command would print itself.  None when there is
    none, it declined (an answer that needs the store of record, an error: the command then
    answers, or reports, the cold way) or it did not answer as expected.  STORE: the --store
    given, else None (found as every command finds it).  Unlike the hook, it starts no
    answerer: only the watcher or a hook keeps one."""
    found = _answerer_of(repo, store) if command in CLI_FIELDS else None
    if found is None:
        return None
    repo, store, path = found
    reply, ours = _send(path, store, {"op": "cli", "command": command, "fields": fields,
                                      "repo": repo, "env": answer_env()})
    if reply is None or not ours:
        return None
    out, err, status = reply.get("stdout"), reply.get("stderr"), reply.get("status")
    if not (isinstance(out, str) and isinstance(err, str) and type(status) is int):
        return None
    return out, err, status


def _lock_free(store: str) -> bool:
    """Whether no answerer holds (or is taking) STORE's lock."""
    import fcntl

    try:
        fd = os.open(lock_path(store), os.O_RDONLY)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # (closing drops the shared lock)
    return True


def start_detached(store: str, repo: str) -> None:
    """Start STORE's answerer in its own session, unless one holds the lock already: the hook
    does not wait for it (this call answers the cold way).  Its output goes to
    ``<store>/answerer.log``."""
    if not _lock_free(store):
        return
    import subprocess

    try:
        with open(os.path.join(store, LOG_NAME), "ab") as log:
            subprocess.Popen([sys.executable, "-m", "repomem.integrations.answerer", store, repo],
                             stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd="/",
                             start_new_session=True, close_fds=True)
    except OSError:
        pass


def request(store: str, op: str, timeout: float = 2.0) -> dict | None:
    """A control request ("status", "stop") to STORE's answerer; None when none answers."""
    path = socket_path(store)
    if path is None:
        return None
    return _exchange(path, {"protocol": PROTOCOL, "op": op, "code": code_identity(),
                            "store": store}, timeout)


# -- the server --------------------------------------------------------------------------------
def context_answer(repo: str, prompt: str, budget: int, store: str | None = None) -> str:
    """The hook's context block for PROMPT in REPO: what the cold path computes in the hook's
    process and the warm answerer in its own.  "" when there is no store or nothing to say."""
    from repomem.service.agents import prompt_context
    from repomem.service.repo import Repo

    r = Repo.open(repo, store=store)
    if not r.store.exists():  # a hook never creates a store
        return ""
    return prompt_context(r, prompt, budget, snapshot_only=True)


def _typed(value, t: type | tuple[type, ...]) -> bool:
    """Whether VALUE is of type T, a bool being no int (JSON's true is no -k)."""
    return type(value) is bool if t is bool else isinstance(value, t) and type(value) is not bool


class NeedsStore(Exception):
    """A command's answer would read the store of record (Chroma) or write the view: the
    answerer declines it and the command answers it the cold way."""


def _refuse(*_args, **_kwargs):
    raise NeedsStore()


def cli_answer(command: str, fields: dict, repo: str, store: str) -> tuple[str, str, int]:
    """(stdout, stderr, exit status) of ``repomem COMMAND`` with FIELDS, computed by the
    command's own ``answer`` (the cold path's function) from the snapshot alone: an answer that
    would open Chroma or take the writer's lock raises NeedsStore instead (a hook-started
    answerer stays light, and never writes)."""
    import argparse
    import importlib

    from repomem.service.repo import Repo

    r = Repo.open(repo, store=store)
    for method in ("_chroma", "writer"):  # this Store only: the watcher's own are untouched
        setattr(r.store, method, _refuse)
    try:
        mod = importlib.import_module(f"repomem.cli.commands.{command}")
        args = argparse.Namespace(repo=repo, store=store, chroma=None, name=None, llm=None,
                                  verbose=False, command=command, _repo=r, **fields)
        return mod.answer(args)
    finally:
        r.store.close()


class Answerer:
    """Serves one store's socket.  idle: seconds without a request before it exits (None:
    never, the watcher's)."""

    def __init__(self, store, idle: float | None = DEFAULT_IDLE, owner: str = "hook"):
        self.store = os.path.realpath(str(store))
        self.idle, self.owner = idle, owner
        self.code = code_identity()
        self.served = 0
        self.stopping = False
        self.path: str | None = None
        self._sock: socket.socket | None = None
        self._ident: tuple[int, int] | None = None
        import threading

        self._compute = threading.Lock()  # one answer at a time: they share the loaded snapshot
        self._slots = threading.BoundedSemaphore(MAX_CLIENTS)

    # -- the socket --
    def bind(self) -> None:
        path = socket_path(self.store, create=True)
        if path is None:
            raise OSError(f"no private place for the socket of {self.store}")
        tmp = f"{path}.{os.getpid()}"
        import socket

        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            s.bind(tmp)
            os.chmod(tmp, 0o600)  # before anyone can reach it by its name
            s.listen(MAX_CLIENTS)
            os.replace(tmp, path)  # a stale socket of a dead answerer goes with it
        except BaseException:
            s.close()
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        st = os.lstat(path)
        self.path, self._sock, self._ident = path, s, (st.st_dev, st.st_ino)

    def ours(self) -> bool:
        """Whether the socket path is still ours (not removed, not replaced)."""
        try:
            st = os.lstat(self.path or "")
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self._ident

    def close(self) -> None:
        self.stopping = True
        if self._sock is not None:
            if self.ours():
                try:
                    os.unlink(self.path or "")
                except OSError:
                    pass
            self._sock.close()
            self._sock = None

    # -- the loop --
    def serve(self) -> None:
        """Accept and answer until stopped, idle too long, or the store, the socket or the code
        on disk went away."""
        import threading

        assert self._sock is not None
        self._sock.settimeout(TICK)
        last = checked = time.monotonic()
        served = 0
        while not self.stopping:
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                conn = None
            except OSError:
                if self.stopping:
                    break
                raise
            now = time.monotonic()
            if conn is not None:
                if not self._slots.acquire(blocking=False):
                    conn.close()
                    continue
                threading.Thread(target=self._handle, args=(conn,), daemon=True).start()
                continue
            if self.served != served:
                served, last = self.served, now
            if self.idle is not None and now - last > self.idle:
                break
            if not os.path.isdir(self.store) or not self.ours():
                break
            if now - checked > 10 * TICK:  # the package was upgraded or edited
                checked = now
                if code_identity() != self.code:
                    break

    def _handle(self, conn: socket.socket) -> None:
        try:
            uid = _peer_uid(conn)
            if uid is not None and uid != os.getuid():
                return
            line = _read_line(conn, MAX_REQUEST, READ_TIMEOUT)
            if line is None:
                return
            try:
                req = json.loads(line)
            except ValueError:
                req = None
            reply = self.reply(req if isinstance(req, dict) else {})
            conn.settimeout(READ_TIMEOUT)
            conn.sendall(json.dumps(reply).encode() + b"\n")
        except OSError:
            pass
        finally:
            conn.close()
            self._slots.release()

    def reply(self, req: dict) -> dict:
        out: dict = {"protocol": PROTOCOL, "store": self.store, "code": self.code}
        if req.get("protocol") != PROTOCOL:
            return dict(out, error="unknown protocol")
        op = req.get("op")
        if op == "status":
            import resource

            ru = resource.getrusage(resource.RUSAGE_SELF)  # (a benchmark's CPU per answer)
            return dict(out, pid=os.getpid(), served=self.served, owner=self.owner,
                        socket=self.path, cpu_s=ru.ru_utime + ru.ru_stime,
                        chromadb_loaded="chromadb" in sys.modules)
        if op == "stop":
            if self.owner != "hook":
                return dict(out, error=f"served by the {self.owner}; stop that instead")
            self.stopping = True
            return dict(out, stopped=os.getpid())
        if op not in ("context", "cli"):
            return dict(out, error="unknown request")
        if req.get("code") != self.code:
            return dict(out, error="another repomem version")
        if req.get("store") != self.store:
            return dict(out, error="another store")
        if op == "cli":
            return self._cli(req, out)
        repo, prompt, budget = req.get("repo"), req.get("prompt"), req.get("budget")
        if not (isinstance(repo, str) and isinstance(prompt, str) and type(budget) is int):
            return dict(out, error="malformed request")
        try:
            with self._compute:
                text = context_answer(repo, prompt, budget, store=self.store)
        except Exception as e:  # the client answers the cold way, which reports nothing
            return dict(out, error=f"{type(e).__name__}")
        self.served += 1
        return dict(out, text=text)

    def _cli(self, req: dict, out: dict) -> dict:
        command, fields, repo = req.get("command"), req.get("fields"), req.get("repo")
        if not isinstance(command, str) or command not in CLI_FIELDS:
            return dict(out, error="malformed request")
        types = CLI_FIELDS[command]
        if not isinstance(fields, dict) or not isinstance(repo, str) or \
                set(fields) != set(types) or \
                not all(_typed(fields[k], t) for k, t in types.items()):
            return dict(out, error="malformed request")
        if req.get("env") != answer_env():
            return dict(out, error="another environment")
        try:
            with self._compute:
                stdout, stderr, status = cli_answer(command, fields, repo, self.store)
        except NeedsStore:
            return dict(out, error="needs the store of record")
        except Exception as e:  # an error is reported by the command itself, the cold way
            return dict(out, error=f"{type(e).__name__}")
        self.served += 1
        return dict(out, stdout=stdout, stderr=stderr, status=status)


def _lock(store: str, wait: bool) -> int | None:
    """Take STORE's answerer lock (the fd to keep open); None when another holds it."""
    import fcntl

    fd = os.open(lock_path(store), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def serve_in_thread(store) -> Answerer:
    """The watcher's answerer: serves from a daemon thread for the watcher's lifetime (after
    asking a hook-started one to make way).  ``close()`` it when the watcher ends."""
    import threading

    a = Answerer(store, idle=None, owner="watcher")

    def run() -> None:
        request(a.store, "stop")
        fd = _lock(a.store, wait=True)  # returns once a hook-started answerer has exited
        if fd is None or a.stopping:
            return
        try:
            a.bind()
            a.serve()
        except OSError as e:
            print(f"repomem: answerer: {e}", file=sys.stderr)
        finally:
            a.close()
            os.close(fd)

    threading.Thread(target=run, name="repomem-answerer", daemon=True).start()
    return a


def main(argv: list[str]) -> int:
    """``python -m repomem.integrations.answerer STORE [REPO]``: the detached answerer a hook
    starts; exits at once when another holds the store's lock."""
    import signal

    if not argv:
        print("usage: python -m repomem.integrations.answerer STORE [REPO]", file=sys.stderr)
        return 2
    store = os.path.realpath(argv[0])
    if not os.path.isdir(store):
        return 1
    fd = _lock(store, wait=False)
    if fd is None:
        return 0
    try:
        idle = float(os.environ.get("REPOMEM_ANSWERER_IDLE", DEFAULT_IDLE))
    except ValueError:
        idle = DEFAULT_IDLE
    a = Answerer(store, idle=idle)
    signal.signal(signal.SIGTERM, lambda *_: setattr(a, "stopping", True))
    try:
        try:
            a.bind()
        except OSError as e:  # keep the lock a while: hooks meanwhile start no other one
            print(f"repomem: answerer: cannot serve {store}: {e}", file=sys.stderr, flush=True)
            until = time.monotonic() + min(idle, DEFAULT_IDLE)
            while not a.stopping and time.monotonic() < until:
                time.sleep(TICK)
            return 1
        if len(argv) > 1:  # load the snapshot now, not on the first request
            try:
                context_answer(argv[1], "warm up the snapshot", 0, store=store)
            except Exception:
                pass
        a.serve()
    finally:
        a.close()
        os.close(fd)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Sources that disagree: two current facts, in different files, about one setting, with
different values.  The `.env` says ``SMTP_PORT=1025`` while the settings class defaults to 587;
a Dockerfile exposes 8000 while the app listens on 8080.  Neither is stale (both are current), so
the ledger cannot pick one; an answer that showed one of them would hide that the repository
contradicts itself, and the agent would act on whichever it was shown.  So a shown fact carries
``disagrees_with``: the other side(s), each with its value and provenance.

What makes two facts "about one setting" is a name the code or the tooling itself resolves, never
a similarity of words:

* **An environment variable** (its name upper-cased, ``-`` read as ``_``), stated by
  - a value given to it: a dotenv file's key (``.env``, ``.env.*``, ``*.env``, ``.flaskenv``), a
    Dockerfile ``ENV``, a compose service's ``environment`` (map or ``NAME=value`` list);
  - a default for it in code: a setting or constant read from the variable (``attrs.env``:
    ``PORT = int(os.environ.get("PORT", 8080))``, ``process.env.PORT || 3000``), a read of the
    variable with a default (``env.NAME``), or a field of a pydantic ``BaseSettings`` class (the
    variable of the field's name, which pydantic-settings reads case-insensitively; a class
    deriving from such a class in the same file counts too).  An ``env_prefix`` is not mined, so
    a prefixed variable is not matched to its field.
  Two dotenv files of different names are alternatives (``.env.production`` and ``.env.test``:
  each true in its environment, as the ledger's scoped keys are), not sources in conflict.
* **The port the app listens on**: a container port the image or the compose service built from
  this repository publishes (Dockerfile ``EXPOSE``; a compose service with ``build:``, its
  ``ports`` -- the container side -- and ``expose``), against a setting named only for the
  server's port (``PORT``, ``SERVER_PORT``, ``server.port``, ``Settings.port``; not ``DB_PORT``
  nor ``smtp_port``) whose value is a port number, in a file under the Dockerfile's or compose
  file's folder (its build context).  They disagree when the app's port is not among the ones
  published.

Values are compared as stated, quotes and surrounding spaces aside, with the spellings of a
boolean as one (``true``/``True``/``1``); a value that states nothing (``None``, ``<required>``,
code as written) or is redacted never disagrees.  Test files are fixtures and never count.
Only the rows handed in count: the current view (or the one valid at an as-of time), so a
superseded value never disagrees with anything.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from posixpath import basename, dirname

from repomem.core.paths import is_test

# what reads as "no value stated": repomem.core.envreads.NO_DEFAULT and Python's/JS's nothing
_NO_VALUE = frozenset({"", "None", "null", "undefined", "<required>", "<computed>"})
_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})
# a fact that states code or a shape, not a value, is no side of a disagreement
_NOT_VALUES = ("expression", "annotation", "field", "option")
# the words a setting of the server's own port may carry besides "port" (a class name such as
# Settings is a scope): anything else names another program's port (DB_PORT, smtp_port)
_OWN_PORT_WORDS = frozenset({"port", "server", "http", "app", "application", "listen", "web",
                             "bind", "api", "settings", "config", "configuration", "env",
                             "default", "main", "base", "service"})
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_COMPOSE = re.compile(r"^(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$")
# services.<service>.environment[.NAME], .ports[.<i>[.target]], .expose[.<i>], .build[.context]
_SERVICE = re.compile(r"^services\.([^.]+)\.(environment|ports|expose|build)(?:\.(.+))?$")


@dataclass(frozen=True)
class Claim:
    """What one fact says about one setting: SETTING is an environment variable's name or
    ``port``; ROLE is how the fact says it (set, default; exposes, publishes, listens)."""
    setting: str
    role: str
    value: str  # as stated
    ports: frozenset[int] = frozenset()  # exposes, publishes: the container ports


def _attrs(x: dict) -> dict:
    a = x.get("attrs") or {}
    return dict(json.loads(a)) if isinstance(a, str) else dict(a)


def _name(x: dict) -> str:
    """The part of the key after the kind and the path (``Settings.smtp_port``)."""
    key, path = x["key"], x.get("path") or ""
    head = f"{x['kind']}:{path}:"
    return key[len(head):] if key.startswith(head) else key.rsplit(":", 1)[-1]


def _is_dotenv(path: str) -> bool:
    # the config miner's rule for dotenv files (repomem/miners/config.py, not imported: the read
    # path does not load the miners)
    base = basename(path)
    return base in (".env", ".flaskenv") or base.startswith(".env.") or base.endswith(".env")


_SUBST = re.compile(r"^\$\{\w+(?::?-(.*))?\}$")


def _given(value: str) -> str:
    """A value given to a variable as the file states it for a run: compose, a Dockerfile and
    python-dotenv substitute ``${OTHER}`` from the environment, so ``${SMTP_PORT:-1025}`` gives
    its default and any other reference states nothing."""
    m = _SUBST.match(value.strip())
    if m:
        return m.group(1) or ""
    return "" if "$" in value else value


def _var(name: str) -> str:
    return name.strip().upper().replace("-", "_")


def _stated(value: object) -> str | None:
    """VALUE as compared, or None when it states nothing."""
    s = str(value if value is not None else "").strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        s = s[1:-1].strip()
    if s in _NO_VALUE or "<redacted:" in s:
        return None
    low = s.lower()
    return "true" if low in _TRUE else "false" if low in _FALSE else s


def _port(value: str) -> int | None:
    s = (_stated(value) or "").strip()
    return int(s) if s.isdigit() and 0 < int(s) < 65536 else None


def _container_ports(items: str) -> frozenset[int]:
    """The container ports of EXPOSE's or compose's items (``80:8000``, ``127.0.0.1:80:8000/tcp``,
    ``3000-3002``)."""
    out: set[int] = set()
    for item in items.split(","):
        target = item.strip().strip("'\"").rsplit(":", 1)[-1].split("/")[0]
        lo, _, hi = target.partition("-")
        if lo.isdigit() and (not hi or hi.isdigit()):
            a, b = int(lo), int(hi or lo)
            out.update(range(a, min(b, a + 1024) + 1))
    return frozenset(p for p in out if 0 < p < 65536)


def _own_port(name: str) -> bool:
    """A setting named only for the server's own port."""
    words = [w.lower() for w in _WORD.findall(name.replace("env.", "", 1))]
    return "port" in words and words[-1] == "port" and set(words) <= _OWN_PORT_WORDS


class Sources:
    """The claims of a set of current rows, indexed by setting: built once per row list."""

    def __init__(self, rows: list[dict]):
        self.settings_classes = _settings_classes(rows)
        self._places: dict[str, str] = {}
        self.built = {(x["path"], m.group(1)) for x in rows
                      if x["kind"] == "config" and self._place(x["path"] or "") == "compose"
                      and (m := _SERVICE.match(_name(x))) and m.group(2) == "build"}
        self.by_setting: dict[str, list[tuple[Claim, dict]]] = {}
        for x in rows:
            if self._may_claim(x):
                for c in self.claims(x):
                    self.by_setting.setdefault(c.setting, []).append((c, x))

    def _place(self, path: str) -> str:
        """What kind of file PATH is here: test, dotenv, compose, settings (a Python file with
        a settings class) or code; once per path (a view has thousands of rows, few files)."""
        got = self._places.get(path)
        if got is None:
            base = basename(path)
            got = "test" if is_test(path) else "dotenv" if _is_dotenv(path) else \
                "compose" if _COMPOSE.match(base) else \
                "settings" if path in self.settings_classes else "code"
            self._places[path] = got
        return got

    def _may_claim(self, x: dict) -> bool:
        """A cheap first look, so that building the index stays a small part of a cold ask:
        only a fact of a dotenv, compose or settings file, a Dockerfile's, one read from the
        environment or one named for a port can claim anything."""
        kind = x["kind"]
        if kind == "docker":
            return True
        if kind not in ("config", "constant"):
            return False
        place = self._place(x.get("path") or "")
        if place != "code":
            return place != "test"
        attrs = x.get("attrs")
        return ('"env"' in attrs if isinstance(attrs, str) else bool((attrs or {}).get("env"))) \
            or x["key"].lower().endswith("port")

    def claims(self, x: dict) -> list[Claim]:
        kind, path = x["kind"], x.get("path") or ""
        if kind not in ("config", "constant", "docker") or not path or self._place(path) == "test":
            return []
        name, value = _name(x), str(x.get("value") or "")
        out: list[Claim] = []
        if kind == "docker":
            if name == "expose":
                out.append(Claim("port", "exposes", value, _container_ports(value)))
            elif name.startswith("env:"):
                out.append(Claim(_var(name[4:]), "set", _given(value)))
        elif self._place(path) == "dotenv" and kind == "config":
            out.append(Claim(_var(name), "set", _given(value)))
        elif self._place(path) == "compose" and (m := _SERVICE.match(name)):
            what, rest = m.group(2), m.group(3)
            if what == "environment" and rest and "." not in rest:
                out.append(Claim(_var(rest), "set", _given(value)))
            elif what == "environment" and not rest:  # the list form: NAME=value items
                for item in value.split(", "):
                    var, eq, val = item.partition("=")
                    if eq:
                        out.append(Claim(_var(var), "set", _given(val)))
            elif what in ("ports", "expose") and (path, m.group(1)) in self.built and \
                    (not rest or rest.isdigit() or rest.endswith(".target")):
                out.append(Claim("port", "publishes", value, _container_ports(value)))
        else:
            attrs = _attrs(x)
            if any(attrs.get(a) for a in _NOT_VALUES):
                return []
            if attrs.get("env"):
                out.append(Claim(_var(attrs["env"]), "default", value))
            elif path.endswith(".py") and name.count(".") == 1 and \
                    name.split(".")[0] in self.settings_classes.get(path, ()):
                out.append(Claim(_var(name.split(".")[1]), "default", value))
        if kind != "docker" and self._place(path) != "compose" and _own_port(name) \
                and _port(value) is not None:
            out.append(Claim("port", "listens", value))
        return [c for c in out if c.ports or c.role == "listens" or
                c.role in ("set", "default") and _stated(c.value) is not None]


def _settings_classes(rows: list[dict]) -> dict[str, set[str]]:
    """{path: names of its pydantic settings classes}: a class whose bases name BaseSettings, or
    a settings class of the same file."""
    by_path: dict[str, list[dict]] = {}
    for x in rows:
        if x["kind"] == "class":
            by_path.setdefault(x.get("path") or "", []).append(x)
    out: dict[str, set[str]] = {}
    for path, xs in by_path.items():
        if not path.endswith(".py") or not any("BaseSettings" in str(x.get("attrs")) for x in xs):
            continue  # the attributes of a file without one are never parsed
        classes = {x["value"]: set(re.findall(r"\w+", _attrs(x).get("bases") or "")) for x in xs}
        found = {c for c, b in classes.items() if "BaseSettings" in b}
        grew = True
        while grew:
            more = {c for c, b in classes.items() if c not in found and b & found}
            found |= more
            grew = bool(more)
        out[path] = found
    return out


def _disagree(a: Claim, x: dict, b: Claim, y: dict) -> bool:
    """Whether claim A of row X and claim B of row Y contradict each other (see the module)."""
    if x["key"] == y["key"] or x["path"] == y["path"]:
        return False
    if a.setting == "port":
        if (a.role == "listens") == (b.role == "listens"):
            return False
        pub, pubrow, app, approw = (b, y, a, x) if a.role == "listens" else (a, x, b, y)
        context = dirname(pubrow["path"])
        if context and not approw["path"].startswith(context + "/"):
            return False
        return _port(app.value) not in pub.ports
    if _is_dotenv(x["path"]) and _is_dotenv(y["path"]) and \
            x.get("kind") == y.get("kind") == "config":
        return False  # .env.production and .env.test: each true where it applies
    return _stated(a.value) != _stated(b.value)


_CACHE: dict[int, tuple[list[dict], Sources]] = {}


def sources(rows: list[dict]) -> Sources:
    """The index of ROWS, reused while the same list is asked again (a warm process answers
    from one snapshot's rows)."""
    hit = _CACHE.get(id(rows))
    if hit is None or hit[0] is not rows:
        _CACHE.clear()
        hit = (rows, Sources(rows))
        _CACHE[id(rows)] = hit
    return hit[1]


def counterpart(c: Claim, y: dict) -> dict:
    """The other side as an answer shows it (JSON: raw values)."""
    when = y.get("valid_from")
    if isinstance(when, int):  # a row's valid time; a fact's is ISO text already
        when = datetime.fromtimestamp(when, timezone.utc).isoformat()
    return {"setting": c.setting, "says": c.role, "value": c.value, "key": y["key"],
            "subject": y.get("subject"), "path": y.get("path"), "line": y.get("line"),
            "commit": y.get("commit"), "valid_from": when}


def annotate(facts: list[dict], rows: list[dict]) -> None:
    """Give each of FACTS that some other row of ROWS disagrees with ``disagrees_with``: the
    other sides, in file order.  A fact that claims nothing costs no look at ROWS."""
    index: Sources | None = None
    for f in facts:
        if f.get("kind") not in ("config", "constant", "docker"):
            continue
        if index is None:
            index = sources(rows)
        seen: dict[str, dict] = {}
        for a in index.claims(f):
            for b, y in index.by_setting.get(a.setting, ()):
                if y["key"] not in seen and _disagree(a, f, b, y):
                    seen[y["key"]] = counterpart(b, y)
        if seen:
            f["disagrees_with"] = sorted(seen.values(), key=lambda d: (d["path"], d["line"] or 0))

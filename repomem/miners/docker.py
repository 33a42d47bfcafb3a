"""Dockerfile miner: the base image of each stage, the exposed ports, ENV values and ARG defaults.

Parsing (instructions, line continuations, ``KEY=value`` / ``KEY value`` forms, quoting) is left
to the maintained ``dockerfile-parse`` package; nothing is built or run.  Keys (docs/facts.md):

* ``docker:<path>:from:<stage>`` -- the image a stage starts from, ``AS`` name or, for an unnamed
  stage, its 0-based position; ``${VAR}`` references to ARGs declared before the first FROM are
  replaced by their defaults (``python:${PY}-slim`` -> ``python:3.12-slim``), as docker does;
* ``docker:<path>:expose`` -- every exposed port of the file, as a set (``80, 8000/udp``; ``/tcp`` is implied);
* ``docker:<path>:env:<NAME>`` and ``docker:<path>:arg:<NAME>`` -- the value as written; a name
  set in several stages keeps the last one (the final stage is the image that runs).  An ARG
  without a default states nothing;
* ``docker:<path>:cmd`` and ``docker:<path>:entrypoint`` -- the command the final stage's
  container runs, its last CMD and ENTRYPOINT (an exec form ``["uwsgi", "etc/uwsgi.ini"]``
  read as the command line ``uwsgi etc/uwsgi.ini``); an earlier stage's is not the image's.
"""

from __future__ import annotations

import io
import json
import re
import shlex

from repomem.core.model import DOCKER, Fact, set_value
from repomem.miners._base import MineError
from repomem.miners._text import words

MAX_TEXT_LINES = 4
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))")


def _is_dockerfile(path: str) -> bool:
    base = path.rsplit("/", 1)[-1]
    low = base.lower()
    return (low in ("dockerfile", "containerfile") or low.startswith("dockerfile.")
            or low.endswith(".dockerfile"))


def _substitute(value: str, args: dict[str, str]) -> str:
    def one(m):
        name = m.group(1) or m.group(3)
        if name in args:
            return args[name]
        return m.group(2) if m.group(2) is not None else m.group(0)
    return _VAR.sub(one, value)


def _command(value: str) -> str:
    """A CMD's or ENTRYPOINT's command line: an exec form's JSON array joined as a shell would
    read it, a shell form as written."""
    if value.startswith("["):
        try:
            argv = json.loads(value)
        except ValueError:
            return value
        if isinstance(argv, list) and all(isinstance(a, str) for a in argv):
            return shlex.join(argv)
    return value


def _pairs(value: str) -> list[tuple[str, str]]:
    from dockerfile_parse.util import extract_key_values

    return extract_key_values(env_replace=False, args={}, envs={}, instruction_value=value)


class DockerMiner:
    name = "docker"

    def accepts(self, path: str) -> bool:
        return _is_dockerfile(path)

    def mine(self, path: str, text: str) -> list[Fact]:
        from dockerfile_parse import DockerfileParser

        try:
            parser = DockerfileParser(fileobj=io.BytesIO(text.encode("utf-8")), env_replace=False)
            instructions = parser.structure
        except Exception as e:  # the parser's errors are not one documented type
            raise MineError(f"Dockerfile: {(str(e).splitlines() or [type(e).__name__])[0]}") from None
        lines = text.splitlines()
        facts: dict[str, Fact] = {}
        global_args: dict[str, str] = {}
        stage, n_from = None, 0
        ports: list[tuple[str, int]] = []
        runs: dict[str, tuple[str, int]] = {}  # the current stage's CMD and ENTRYPOINT

        def add(key, subject, value, line, purpose, attrs=(), is_set=False):
            first = line - 1
            src = "\n".join(lines[first:first + MAX_TEXT_LINES]) if lines else ""
            facts[key] = Fact(key=f"{DOCKER}:{path}:{key}", kind=DOCKER, subject=subject,
                              value=value, path=path, line=line, text=src, purpose=purpose,
                              attrs=tuple(attrs), is_set=is_set)

        for ins in instructions:
            op, value = ins["instruction"].upper(), ins["value"].strip()
            line = ins["startline"] + 1
            if op == "FROM":
                parts = value.split()
                parts = [p for p in parts if not p.startswith("--")]  # --platform=...
                if not parts:
                    continue
                image = _substitute(parts[0], global_args)
                stage = parts[2] if len(parts) >= 3 and parts[1].lower() == "as" else str(n_from)
                n_from += 1
                runs.clear()
                add(f"from:{stage}", f"base image of stage {stage} in {path}", image, line,
                    f"docker base image FROM container image tag version stage {stage} ({path})",
                    attrs=(("stage", stage),))
            elif op == "EXPOSE":
                # "8000/tcp" is "8000": tcp is the default protocol
                ports += [(re.sub(r"/tcp$", "", p, flags=re.I), line) for p in value.split()]
            elif op in ("CMD", "ENTRYPOINT") and value:
                runs[op] = (_command(value), line)
            elif op in ("ENV", "ARG"):
                for name, val in _pairs(value):
                    if op == "ARG" and not re.search(rf"(^|\s){re.escape(name)}=", value):
                        continue  # declared without a default
                    if op == "ARG" and stage is None:
                        global_args[name] = val  # usable in FROM lines
                    kind = op.lower()
                    add(f"{kind}:{name}", f"{op} {name} in {path}", val, line,
                        f"{words(name)} docker {'environment variable' if kind == 'env' else 'build argument'}"
                        f" {op} ({path})")
        for op, (command, line) in runs.items():
            add(op.lower(), f"{op} in {path}", command, line,
                f"docker command the container runs CMD start run app server ({path})" if op == "CMD"
                else f"docker entrypoint executable the container starts with ENTRYPOINT ({path})")
        if ports:
            add("expose", f"exposed ports in {path}", set_value(p for p, _ in ports), ports[0][1],
                f"docker exposed container ports EXPOSE listen port ({path})", is_set=True)
        return list(facts.values())


MINER = DockerMiner()

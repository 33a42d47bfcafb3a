"""Dockerfile and docker compose facts, read with the standard library and PyYAML."""

from __future__ import annotations

import re

import yaml


def dockerfile(text: str) -> dict:
    """FROM of the final stage and of each other stage (by name, else index), EXPOSE, ENV (both
    syntaxes), ARG defaults."""
    out: dict[tuple, str] = {}
    froms: list[tuple[str | None, str]] = []
    lines, buf = [], ""
    for raw in text.splitlines():
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        buf += " " + s.rstrip("\\")
        if not s.endswith("\\"):
            lines.append(buf.strip())
            buf = ""
    for line in lines:
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "FROM":
            parts = rest.split()
            name = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else None
            froms.append((name, parts[0]))
        elif word == "EXPOSE":
            out[("expose",)] = " ".join(rest.split())
        elif word in ("ENV", "ARG"):
            pairs = re.findall(r'(\w+)=("[^"]*"|\S+)', rest)
            if not pairs and word == "ENV" and len(rest.split(None, 1)) == 2:
                pairs = [tuple(rest.split(None, 1))]
            for k, v in pairs:
                out[(word.lower(), k)] = v.strip('"')
    # the image the container runs on (the last stage), and every other stage by name
    for i, (name, image) in enumerate(froms):
        out[("from", "final" if i == len(froms) - 1 else name or i)] = image
    return out


def compose(text: str) -> dict:
    data = yaml.safe_load(text) or {}
    out = {}
    for name, svc in (data.get("services") or {}).items():
        if isinstance(svc, dict):
            if isinstance(svc.get("image"), str):
                out[("image", name)] = svc["image"]
            if isinstance(svc.get("ports"), list) and len(svc["ports"]) == 1:
                out[("ports", name)] = str(svc["ports"][0])
    return out

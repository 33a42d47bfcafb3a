"""What is asked of each history: the files read (and how) and the wording of each fact."""

from __future__ import annotations

import re

import extract as X
import extract_docker as D
import extract_js as J
import phrasing as P
from engine import Config, Source

SECRETISH = re.compile(r"SECRET|PASSWORD|TOKEN|_KEY$|API_KEY|CREDENTIAL", re.I)


def _dep_scope(group=None, keep_groups=None):
    """Requirement files give ("dep", name): file the fact under GROUP; pyproject/setup facts
    are ("dep", group, name) already."""
    def scope(fid):
        if fid[0] != "dep":
            return fid
        if len(fid) == 2:
            return ("dep", group, fid[1])
        if keep_groups is not None and fid[1] not in keep_groups:
            return None
        return fid
    return scope


def _example(name):
    """The dependencies of an example project, scoped apart from the project's own."""
    return lambda fid: ("dep", f"example:{name}", fid[2]) if fid[0] == "dep" and fid[1] == "main" else None


def _only(*names):
    return lambda fid: fid if fid[0] == "const" and fid[1] in names else None


def _describe_common(proj, fid, value, path, day, absent, env_of=None):
    """Wording of dependency, python, constant, setting and docker facts."""
    kind = fid[0]
    salt = (proj, fid, day)
    if kind == "dep":
        group, dep = fid[1], fid[2]
        dep = f"`{dep}`" if P.markers(dep) else dep  # flask-migrate: a name, not a cue
        if group == "main":
            q = P.pick(P.DEP_MAIN, *salt).format(dep=dep, proj=proj)
        elif group in P.DEP_GROUP:
            q = P.pick(P.DEP_GROUP[group], *salt).format(dep=dep, proj=proj)
        elif group.startswith("example:"):
            q = P.pick(P.DEP_EXAMPLE, *salt).format(dep=dep, proj=proj, example=group[8:])
        elif group.startswith("extra:"):
            q = P.pick(P.DEP_EXTRA, *salt).format(dep=dep, proj=proj, group=group[6:])
        else:
            q = P.pick(P.DEP_OTHER_GROUP, *salt).format(dep=dep, proj=proj, group=group)
        return {"family": "dependency", "question": q, "kinds": ["dependency"], "subject": fid[2]}
    if kind == "python-requires":
        return {"family": "python", "question": P.pick(P.PYREQ, *salt).format(proj=proj),
                "kinds": ["python"], "subject": None}
    if kind == "classifiers":
        return {"family": "python", "question": P.pick(P.CLASSIFIERS, *salt).format(proj=proj),
                "kinds": ["python"], "subject": None}
    if kind == "engine-node":
        return {"family": "dependency", "question": P.pick(P.NODE, *salt).format(proj=proj),
                "kinds": ["dependency", "config"], "subject": "node"}
    if kind == "version":
        return {"family": "constant", "question": P.pick(P.VERSION, *salt).format(proj=proj),
                "kinds": ["config", "constant"], "subject": "version"}
    if kind == "const":
        name = fid[1]
        if name == "__version__":
            q = P.pick(P.DUNDER, *salt).format(proj=proj, name=name, where=f"`{path}`")
        else:
            q = P.pick(P.CONST, *salt).format(name=name, where=f"{proj}'s `{path}`")
        return {"family": "constant", "question": q, "kinds": ["constant", "config"], "subject": name}
    if kind == "setting":
        q = P.pick(P.SETTING, *salt).format(proj=proj, cls=fid[1], name=fid[2])
        return {"family": "settings", "question": q, "kinds": ["config", "constant"], "subject": fid[2]}
    if kind == "setting-default":
        q = P.pick(P.SETTING_DEFAULT, *salt).format(proj=proj, cls=fid[1], name=fid[2])
        return {"family": "settings", "question": q, "kinds": ["config", "constant"], "subject": fid[2]}
    if kind == "djsetting":
        q = P.pick(P.DJANGO, *salt).format(proj=proj, env=fid[1], name=fid[2])
        return {"family": "settings", "question": q, "kinds": ["config", "constant"], "subject": fid[2]}
    if kind == "route":
        q = P.pick(P.ROUTE, *salt).format(proj=proj, handler=fid[1])
        return {"family": "route", "question": q, "kinds": ["route"], "subject": fid[1]}
    if kind in ("from", "expose", "env", "arg", "image", "ports"):
        where = "Dockerfile" if "Dockerfile" in path else path
        if kind == "from":
            tpl = P.DOCKER["from"] if fid[1] == "final" else P.DOCKER["from-stage"]
            q = P.pick(tpl, *salt).format(proj=proj, where=where, stage=fid[1])
        else:
            q = P.pick(P.DOCKER[kind], *salt).format(proj=proj, where=where, name=fid[-1])
        kinds = ["docker"] if kind in ("from", "expose", "env", "arg") else ["config", "docker"]
        subj = fid[-1] if kind in ("env", "arg", "image", "ports") else None
        return {"family": "docker", "question": q, "kinds": kinds, "subject": subj}
    return None


def describe_for(proj, ask=lambda fid: True):
    def describe(fid, value, path, day, absent):
        if not ask(fid):
            return None
        if value is not None and len(str(value)) > 80:
            return None
        q = _describe_common(proj, fid, value, path, day, absent)
        if q and day:
            q["question"] = asof_wording(q["question"], day)
        return q
    return describe


def asof_wording(q: str, day: str) -> str:
    """The same question asked about a past day: 'On 2019-05-02, which ...?'."""
    if q.startswith("`"):
        return f"On {day}: {q}"
    return f"On {day}, {q if q.startswith('I ') else q[0].lower() + q[1:]}"


# ------------------------------------------------------------------------------------ configs

def _code(g, repo, proj, dirs):
    """Functions by purpose (now, and on a day before a rename) and retired names."""
    import functions as F
    import renames as R
    return (F.python_functions(g, repo, proj, dirs) + R.renamed_questions(g, repo, proj, dirs)
            + R.asof_before_rename(g, repo, proj, dirs))


def click() -> Config:
    req = [Source(p, X.requirements, _dep_scope(g)) for p, g in (
        ("docs/requirements.txt", "docs"), ("requirements/docs.txt", "docs"),
        ("requirements/dev.txt", "dev"), ("requirements/tests.txt", "tests"),
        ("requirements/typing.txt", "typing"))]
    return Config("click", "click", [
        Source("setup.py", X.setup_py), Source("setup.cfg", X.setup_cfg),
        Source("pyproject.toml", X.pyproject),
        Source("click/__init__.py", X.module_constants, _only("__version__")),
        Source("src/click/__init__.py", X.module_constants, _only("__version__")),
        *req,
        *[Source(f"examples/{ex}/{f}", parse, _example(ex)) for ex in ("imagepipe", "aliases", "repo")
          for f, parse in (("setup.py", X.setup_py), ("pyproject.toml", X.pyproject))]],
        describe_for("click"),
        extra=lambda g: _code(g, "click", "click", ["src/click", "click"]))


def httpx() -> Config:
    return Config("httpx", "httpx", [
        Source("setup.py", X.setup_py), Source("pyproject.toml", X.pyproject),
        Source("requirements.txt", X.requirements, _dep_scope("dev")),
        Source("httpx/__version__.py", X.module_constants, _only("__version__", "__title__")),
        Source("httpx/_config.py", X.module_constants),
        Source("httpx/config.py", X.module_constants),
        Source("httpx/_status_codes.py", X.module_constants),
    ], describe_for("httpx", lambda fid: not (fid[0] == "const" and fid[1] in ("UNSET",))),
        extra=lambda g: _code(g, "httpx", "httpx", ["httpx"]))


def microblog() -> Config:
    import functions as F
    return Config("microblog", "microblog", [
        Source("requirements.txt", X.requirements, _dep_scope("main")),
        Source("config.py", X.class_settings),
        Source("Dockerfile", D.dockerfile),
        Source("app", F.flask_routes, scan=True),
    ], describe_for("microblog", lambda fid: not SECRETISH.search(str(fid[-1]))),
        extra=lambda g: F.python_functions(g, "microblog", "microblog", ["app"]))


def bakerydemo() -> Config:
    import functions as F

    def env(name):
        return lambda fid: (("djsetting", name, fid[1]) if fid[0] == "const"
                            and not SECRETISH.search(fid[1]) and not fid[1].startswith("__") else None)
    return Config("bakerydemo", "bakerydemo", [
        Source("requirements/base.txt", X.requirements, _dep_scope("main")),
        Source("requirements/development.txt", X.requirements, _dep_scope("development")),
        Source("requirements/production.txt", X.requirements, _dep_scope("production")),
        Source("bakerydemo/settings/base.py", X.module_constants, env("base")),
        Source("bakerydemo/settings/dev.py", X.module_constants, env("dev")),
        Source("bakerydemo/settings/production.py", X.module_constants, env("production")),
        Source("Dockerfile", D.dockerfile),
        Source("docker-compose.yml", D.compose),
    ], describe_for("bakerydemo"),
        extra=lambda g: F.python_functions(g, "bakerydemo", "bakerydemo", ["bakerydemo"]))


def express() -> Config:
    return Config("express", "express", [Source("package.json", J.package_json)],
                  describe_for("express"),
                  extra=lambda g: _js_code(g))


def _js_code(g):
    import functions as F
    import renames as R
    funcs = F.js_functions(g, "express", "express", ["lib"])
    return (funcs + F.asof_code(g, funcs, F.js_function_at(g))
            + R.renamed_questions(g, "express", "express", ["lib"])
            + R.asof_before_rename(g, "express", "express", ["lib"]))


def realworld() -> Config:
    return Config("node-express-realworld", "the RealWorld API", [
        Source("package.json", J.package_json), Source("Dockerfile", D.dockerfile)],
        describe_for("the RealWorld API"),
        extra=lambda g: _ts_code(g))


def _ts_code(g):
    import functions as F
    import renames as R
    routes = F.ts_routes(g, "node-express-realworld", "the RealWorld API")
    return (routes + F.asof_code(g, routes, F.ts_route_at(g))
            + R.renamed_questions(g, "node-express-realworld", "the RealWorld API", ["src"]))


CONFIGS = {"click": click, "httpx": httpx, "microblog": microblog, "bakerydemo": bakerydemo,
           "express": express, "node-express-realworld": realworld}

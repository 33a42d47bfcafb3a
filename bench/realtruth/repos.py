"""What is asked of each history: the files read (and how) and the wording of each fact."""

from __future__ import annotations

import re

from bench.realtruth import extract as X
from bench.realtruth import extract_docker as D
from bench.realtruth import extract_js as J
from bench.realtruth import extract_more as M
from bench.realtruth import phrasing as P
from bench.realtruth.engine import Config, Source

BUILDS = ("maven", "gradle", "kotlin")
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
    if kind in ("dep", "java") and ":" in fid[1] and fid[1].split(":")[0] in BUILDS:
        # one of several build files of the same app: the question names the file
        proj, fid = f"{proj} `{path}`", (fid[0], fid[1].split(":", 1)[1], *fid[2:])
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
        # a route fact names its path, not necessarily its handler: Go and Java routes are
        # matched by file and value
        subj = fid[1] if path.endswith(".py") else None
        if absent and subj is None:
            return None  # without a subject, any route of the file would "state" it
        return {"family": "route", "question": q, "kinds": ["route"], "subject": subj}
    if kind == "prop":
        q = P.pick(P.PROPERTY, *salt).format(proj=proj, name=fid[1], where=path)
        kinds = ["config", "dependency"] if path.endswith("pom.xml") else ["config"]
        return {"family": "settings", "question": q, "kinds": kinds, "subject": fid[1]}
    if kind == "java":
        if absent:
            return None  # the Java version may now be set another way (a toolchain): no subject
        q = P.pick(P.JAVA[fid[1]], *salt).format(proj=proj, where=path)
        return {"family": "dependency", "question": q, "kinds": ["dependency", "config"],
                "subject": None}
    if kind == "init":
        q = P.pick(P.INIT_DEFAULT, *salt).format(proj=proj, cls=fid[1], name=fid[2])
        return {"family": "settings", "question": q, "kinds": ["config", "constant"], "subject": fid[2]}
    if kind == "option":
        q = P.pick(P.OPTION, *salt).format(proj=proj, func=fid[1], name=fid[2])
        return {"family": "settings", "question": q, "kinds": ["config", "constant"], "subject": fid[2]}
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
            q["question"] = P.asof_wording(q["question"], day)
        return q
    return describe


# ------------------------------------------------------------------------------------ configs

def _code(g, repo, proj, dirs):
    """Functions by purpose (now, and on a day before a rename) and retired names."""
    from bench.realtruth import functions as F
    from bench.realtruth import renames as R
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
    from bench.realtruth import functions as F
    return Config("microblog", "microblog", [
        Source("requirements.txt", X.requirements, _dep_scope("main")),
        Source("config.py", X.class_settings),
        Source("Dockerfile", D.dockerfile),
        Source("app", F.flask_routes, scan=True),
    ], describe_for("microblog", lambda fid: not SECRETISH.search(str(fid[-1]))),
        extra=lambda g: F.python_functions(g, "microblog", "microblog", ["app"]))


def bakerydemo() -> Config:
    from bench.realtruth import functions as F

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
    from bench.realtruth import functions as F
    from bench.realtruth import renames as R
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
    from bench.realtruth import functions as F
    from bench.realtruth import renames as R
    routes = F.ts_routes(g, "node-express-realworld", "the RealWorld API")
    return (routes + F.asof_code(g, routes, F.ts_route_at(g))
            + R.renamed_questions(g, "node-express-realworld", "the RealWorld API", ["src"]))


def _py(repo, proj, dirs):
    return lambda g: _code(g, repo, proj, dirs)


def uvicorn() -> Config:
    return Config("uvicorn", "uvicorn", [
        Source("setup.py", X.setup_py), Source("pyproject.toml", X.pyproject),
        Source("requirements.txt", X.requirements, _dep_scope("dev")),
        Source("uvicorn/__init__.py", X.module_constants, _only("__version__")),
        Source("uvicorn/config.py", M.init_defaults("Config")),
        Source("uvicorn/config.py", X.module_constants, lambda fid: fid if fid[0] == "const" else None),
    ], describe_for("uvicorn"), extra=_py("uvicorn", "uvicorn", ["uvicorn"]))


def typer() -> Config:
    return Config("typer", "typer", [
        Source("setup.py", X.setup_py), Source("pyproject.toml", X.pyproject),
        Source("typer/__init__.py", X.module_constants, _only("__version__")),
        Source("typer/cli.py", M.typer_options),
    ], describe_for("typer"), extra=_py("typer", "typer", ["typer"]))


def gin_realworld() -> Config:
    from bench.realtruth import code_more as C
    proj = "the gin RealWorld app"
    return Config("golang-gin-realworld-example-app", proj, [
        Source("go.mod", M.go_mod, lambda fid: fid if fid[1] != "indirect" else None),
        Source("common/utils.go", M.go_constants),
        Source("hello.go", C.gin_routes("hello.go"), scan=True),
    ], describe_for(proj, lambda fid: not SECRETISH.search(str(fid[-1]))),
        extra=lambda g: C.doc_functions(g, "golang-gin-realworld-example-app", proj,
                                        ["users", "articles", "common"], ".go",
                                        C.go_doc_functions))


def mini_redis() -> Config:
    from bench.realtruth import code_more as C
    return Config("mini-redis", "mini-redis", [
        Source("Cargo.toml", M.cargo_toml),
        Source("src/lib.rs", M.rust_constants), Source("src/server.rs", M.rust_constants),
        Source("src/db.rs", M.rust_constants), Source("src/frame.rs", M.rust_constants),
    ], describe_for("mini-redis"),
        extra=lambda g: C.doc_functions(g, "mini-redis", "mini-redis", ["src"], ".rs",
                                        C.rust_doc_functions))


def gs_rest_service() -> Config:
    from bench.realtruth import code_more as C
    proj = "the gs-rest-service guide"
    java = "complete/src/main/java/com/example/restservice"
    return Config("gs-rest-service", proj, [
        Source("complete/pom.xml", M.pom_xml, _scoped("maven")),
        Source("complete/build.gradle", M.gradle, _scoped("gradle")),
        Source("complete-kotlin/build.gradle.kts", M.gradle, _scoped("kotlin")),
        Source("complete-kotlin/src/main/resources/application.properties", M.properties),
        Source("complete/gradle/wrapper/gradle-wrapper.properties", M.properties),
        Source("complete-kotlin/gradle/wrapper/gradle-wrapper.properties", M.properties),
        Source(f"{java}/GreetingController.java", M.java_constants),
        Source("complete", C.spring_routes("complete/src/main"), scan=True),
    ], describe_for(proj))


def _scoped(where):
    """gs-rest-service builds the same app three ways: each build file's facts apart."""
    return lambda fid: (fid[0], f"{where}:{fid[1]}", *fid[2:]) if fid[0] in ("dep", "java") else fid


def httpie() -> Config:
    return Config("httpie", "HTTPie", [
        Source("setup.py", X.setup_py), Source("setup.cfg", X.setup_cfg),
        Source("pyproject.toml", X.pyproject),
        Source("httpie/__init__.py", X.module_constants, _only("__version__")),
        Source("httpie/compat.py", X.module_constants),
        Source("httpie/config.py", X.module_constants),
        Source("httpie/cli/constants.py", X.module_constants),
    ], describe_for("HTTPie"), extra=_py("httpie", "HTTPie", ["httpie"]))


def pydantic_settings() -> Config:
    return Config("pydantic-settings", "pydantic-settings", [
        Source("setup.py", X.setup_py), Source("pyproject.toml", X.pyproject),
        Source("pydantic_settings/version.py", X.module_constants),
    ], describe_for("pydantic-settings"),
        extra=_py("pydantic-settings", "pydantic-settings", ["pydantic_settings"]))


def locallibrary() -> Config:
    from bench.realtruth import functions as F

    def env(fid):
        return (("djsetting", "project", fid[1]) if fid[0] == "const"
                and not SECRETISH.search(fid[1]) and not fid[1].startswith("__") else None)
    return Config("django-locallibrary-tutorial", "the LocalLibrary site", [
        Source("requirements.txt", X.requirements, _dep_scope("main")),
        Source("locallibrary/settings.py", X.module_constants, env),
    ], describe_for("the LocalLibrary site"),
        extra=lambda g: F.python_functions(g, "django-locallibrary-tutorial", "the LocalLibrary site",
                                           ["catalog", "locallibrary"]))


def koa() -> Config:
    from bench.realtruth import functions as F
    from bench.realtruth import renames as R

    def code(g):
        funcs = F.js_functions(g, "koa", "koa", ["lib"])
        return (funcs + F.asof_code(g, funcs, F.js_function_at(g))
                + R.renamed_questions(g, "koa", "koa", ["lib"]))
    return Config("koa", "koa", [Source("package.json", J.package_json)], describe_for("koa"),
                  extra=code)


def echo() -> Config:
    from bench.realtruth import code_more as C
    return Config("echo", "echo", [
        Source("go.mod", M.go_mod, lambda fid: fid if fid[1] != "indirect" else None),
        Source("echo.go", M.go_constants), Source("version.go", M.go_constants),
        Source("context.go", M.go_constants),
    ], describe_for("echo"),
        extra=lambda g: C.doc_functions(g, "echo", "echo", ["", "middleware"], ".go",
                                        C.go_doc_functions))


def spring_realworld() -> Config:
    from bench.realtruth import code_more as C
    proj = "the Spring Boot RealWorld app"
    return Config("spring-boot-realworld-example-app", proj, [
        Source("build.gradle", M.gradle),
        Source("src/main/resources/application.properties", M.properties),
        Source("src", C.spring_routes("src/main/java"), scan=True),
    ], describe_for(proj, lambda fid: not SECRETISH.search(str(fid[-1]))))


CONFIGS = {"click": click, "httpx": httpx, "microblog": microblog, "bakerydemo": bakerydemo,
           "express": express, "node-express-realworld": realworld,
           "uvicorn": uvicorn, "typer": typer, "golang-gin-realworld-example-app": gin_realworld,
           "mini-redis": mini_redis, "gs-rest-service": gs_rest_service, "httpie": httpie,
           "pydantic-settings": pydantic_settings, "django-locallibrary-tutorial": locallibrary,
           "koa": koa, "echo": echo, "spring-boot-realworld-example-app": spring_realworld}

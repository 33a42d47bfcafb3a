"""The stale-fact benchmark suite: marker-free scenarios, each built as a real git repository.

``scenarios(versions="base" | "many", noise=False)`` returns a list of dicts:

    {"name", "family",
     "commits": [(iso_date, message, {path: text | None}) | (iso_date, message, {"revert": i})],
     "questions": [{"question", "about": {"keys": [...], "anchors": [...], "kind": ...},
                    "field": "value" | "path", "answer": str | None (the fact is gone),
                    "stale": [superseded values], "as_of": [[iso_datetime, value], ...]}]}

Marker-free: the states of a fact differ only in the changed value.  No file, commit message or
question says which state is the later one (tests/test_marker_free.py enforces a word list), and
versions go down as well as up, so "the bigger number" is no cue either.  ``about`` is the
ground-truth label of what a question is about (raw keys for config/constant/dependency facts,
``path::qualname`` anchors for functions and routes): the benchmark hands it to the baselines'
readers, which favours them.

``versions="many"`` prefixes every changing fact's history with ten more values, so each key has
at least eleven versions whose near-identical snippets crowd a top-k.  ``noise=True`` adds an
unrelated code base (several hundred facts: other services' ports, settings, pins, handlers)
to the repository, with a history of its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

START = datetime(2025, 1, 6, 10, 0, tzinfo=timezone.utc)
STEP = timedelta(days=2)
EXTRA = 10  # values prefixed to every history in the "many versions" suite

# Words and phrases that would tell a reader which state is the later one.
FORBIDDEN = ["old", "older", "oldest", "new", "newer", "newest", "current", "currently",
             "previous", "previously", "deprecated", "deprecate", "legacy", "outdated", "former",
             "formerly", "obsolete", "latest", "update", "updated", "updates", "rename",
             "renamed", "replace", "replaced", "replacement", "no longer", "stale", "supersede",
             "superseded", "revert", "reverted", "now", "anymore", "recent", "recently", "prior",
             "earlier", "later", "was", "were", "used to", "originally", "original", "change",
             "changed", "upgrade", "upgraded", "downgrade", "downgraded", "bump", "bumped",
             "moved", "migrate", "migrated", "retired", "archived", "instead", "today", "still",
             "v1", "v2", "v3", "next", "last", "first", "final", "temporary", "tmp", "todo", "wip"]


def _date(i: int) -> str:
    return (START + i * STEP).isoformat()


def _between(i: int) -> str:
    """A moment inside the validity of the state written by commit ``i``."""
    return (START + i * STEP + STEP / 2).isoformat()


def _chain(name, family, values, render, question, about, message, base=None, field="value",
           ending=None, shown=None):
    """One fact taking ``values`` in turn, one commit each.

    render(value, previous_value) -> {path: text | None}; base: files of the first commit too;
    ending: None, "revert" (undo the commit of the final value) or ("delete", message, files).
    shown(value) -> the value as mined (default: the value itself).
    """
    shown = shown or (lambda v: v)
    commits = []
    prev = None
    for i, v in enumerate(values):
        files = dict(base or {}) if i == 0 else {}
        files.update(render(v, prev))
        commits.append((_date(i), message(v), files))
        prev = v
    mined = [shown(v) for v in values]
    as_of = [[_between(i), mined[i]] for i in range(len(values))]
    if ending == "revert":
        commits.append((_date(len(values)), message(values[-2]), {"revert": len(values) - 1}))
        answer = mined[-2]
        as_of.append([_between(len(values)), answer])
    elif ending:
        _, msg, files = ending
        commits.append((_date(len(values)), msg, files(values[-1])))
        answer = None
    else:
        answer = mined[-1]
    stale = sorted({m for m in mined if m != answer})
    return {"name": name, "family": family, "commits": commits,
            "questions": [{"question": question, "about": about, "field": field,
                           "answer": answer, "stale": stale, "as_of": as_of}]}


def _extra(kind: str, n: int, avoid) -> list:
    """n values of one kind, none equal to a value in ``avoid``; deterministic, no order cue."""
    out: list = []
    i = 0
    while len(out) < n:
        i += 1
        if kind == "port":
            v = str(7000 + (i * 337) % 2900)
        elif kind == "int":
            v = str(11 + (i * 37) % 480)
        elif kind == "host":
            v = f"{['db', 'pg', 'sql', 'store', 'data'][i % 5]}{i}.{['eu', 'us', 'ap'][i % 3]}.internal"
        elif kind == "level":
            v = ["debug", "info", "warning", "error", "critical", "trace", "notice", "fatal",
                 "verbose", "quiet", "alert", "emerg", "panic", "silent"][i % 14]
        elif kind == "pin":
            v = f"=={1 + (i * 7) % 5}.{(i * 13) % 31}.{i % 4}"
        elif kind == "set":
            lo = 6 + (i * 5) % 7
            width = 2 + i % 3
            v = tuple(f"3.{m}" for m in range(lo, lo + width))
        elif kind == "route":
            v = f"/{['api', 'svc', 'rest', 'public', 'ext'][i % 5]}/{['r', 'x', 'g', 'm'][i % 4]}{i}"
        else:  # identifiers
            verbs = ["load", "read", "get", "find", "resolve", "obtain", "pull", "query", "select",
                     "collect", "gather", "produce", "build", "make", "compute", "derive"]
            v = f"{verbs[i % len(verbs)]}_{kind}_{['a', 'b', 'c', 'd'][i % 4]}{i}"
        if v not in avoid and v not in out:
            out.append(v)
    return out


# ------------------------------------------------------------------------------------- renames

RENAMES = [
    ("users", "users/lookup.py", "Look up a user account by its primary key.",
     ["get_user_by_id", "fetch_user"], "account",
     "What is the function that looks up a user account by primary key called?"),
    ("invoices", "billing/invoices.py", "Sum the line items of an invoice including tax.",
     ["compute_total", "invoice_total"], "total",
     "Which function sums the line items of an invoice including tax?"),
    ("tokens", "auth/tokens.py", "Check the signature and expiry of an access token.",
     ["check_token", "verify_access_token", "validate_token"], "token",
     "What's the name of the function that checks an access token's signature and expiry?"),
    ("mail", "notify/mail.py", "Send a receipt email to the customer.",
     ["send_receipt", "mail_receipt"], "receipt",
     "What do I call to send a receipt email to the customer?"),
]

_FUNC = '''\
def {name}({args}):
    """{doc}"""
    rows = db.query({table!r}, limit={limit}, key={key})
    if not rows:
        raise LookupError({table!r})
    result = rows[0]
    audit.log({table!r}, result)
    return result
'''

_HEADER = '''\
"""{module} helpers."""

from app import audit, db


def ping():
    """Health probe for the {module} module."""
    return db.query("health", limit=1, key=0)
'''


def _module(module, fname, doc, table, limit=50):
    return _HEADER.format(module=module) + "\n\n" + _FUNC.format(
        name=fname, args="key", doc=doc, table=table, limit=limit, key="key")


def _renames(edit: bool, many: bool) -> list[dict]:
    out = []
    for j, (mod, path, doc, names, table, q) in enumerate(RENAMES):
        values = list(names)
        if many:
            values = _extra(table, EXTRA, values) + values
        limits = {v: 20 + 5 * ((i * 7 + j) % 11) for i, v in enumerate(values)}
        anchors = [f"{path}::{v}" for v in values]
        out.append(_chain(
            f"{'rename-edit' if edit else 'rename'}-{mod}",
            "rename with edit" if edit else "function rename", values,
            lambda v, p, mod=mod, path=path, doc=doc, table=table, limits=limits: {
                path: _module(mod, v, doc, table, limits[v] if edit else 50)},
            q, {"kind": "function", "anchors": anchors},
            lambda v, mod=mod: f"{mod}: call the lookup {v}",
            base={"app/__init__.py": "", "app/db.py": "def query(table, limit, key):\n    return []\n",
                  "app/audit.py": "def log(table, row):\n    return None\n"}))
    return out


# ------------------------------------------------------------------------------------- moves

MOVES = [
    ("billing", "compute_vat", "Compute the VAT owed on an order for a country.", "vat",
     ["billing/orders.py", "billing/tax.py"],
     "Which module defines the function that computes the VAT owed on an order?"),
    ("shipping", "quote_shipping", "Quote the shipping cost of a parcel by weight.", "parcel",
     ["shipping/api.py", "shipping/rates.py", "shipping/pricing/rates.py"],
     "In which file is the shipping cost quote for a parcel implemented?"),
    ("search", "rank_results", "Rank search hits by relevance score.", "hits",
     ["search/views.py", "search/ranking.py"],
     "Where does the code that ranks search hits by relevance live?"),
    ("reports", "render_pdf", "Render a monthly statement as a PDF document.", "statement",
     ["reports/export.py", "reports/pdf.py", "reports/render/pdf.py"],
     "Which file has the function that renders a monthly statement as a PDF?"),
]


def _moves(many: bool) -> list[dict]:
    out = []
    for mod, fname, doc, table, paths, q in MOVES:
        values = list(paths)
        if many:
            extra = [f"{mod}/{w}.py" for w in ["helpers", "utils", "core", "common", "tools",
                                                 "misc", "shared", "lib", "base", "support",
                                                 "ops", "calc"] if f"{mod}/{w}.py" not in values]
            values = extra[:EXTRA] + values
        home = values[0]
        func = _FUNC.format(name=fname, args="key", doc=doc, table=table, limit=50, key="key")

        def render(v, prev, home=home, mod=mod, func=func):
            files = {v: _HEADER.format(module=mod) + "\n\n" + func}
            if prev is not None:
                files[prev] = _HEADER.format(module=mod) if prev == home else None
            return files

        out.append(_chain(
            f"move-{mod}", "function moved", values, render, q,
            {"kind": "function", "anchors": [f"{p}::{fname}" for p in values]},
            lambda v, fname=fname: f"put {fname} in {v}",
            base={"app/__init__.py": "", "app/db.py": "def query(table, limit, key):\n    return []\n",
                  "app/audit.py": "def log(table, row):\n    return None\n"},
            field="path"))
    return out


# ------------------------------------------------------------------------------------- config

def _toml(port, workers=4, host="0.0.0.0"):
    return f'[server]\nhost = "{host}"\nport = {port}\nworkers = {workers}\n\n[database]\npool_size = 10\n'


def _yaml(port, timeout=30, replicas=3):
    return (f"service:\n  name: orders\n  port: {port}\n  replicas: {replicas}\n"
            f"http:\n  read_timeout: {timeout}\n  max_body_kb: 512\n")


def _json(port, host="cache.internal", ttl=300):
    return ('{\n  "cache": {\n    "host": "%s",\n    "port": %s,\n    "ttl_seconds": %s\n  },\n'
            '  "metrics": {\n    "enabled": true\n  }\n}\n' % (host, port, ttl))


def _ini(host="db1.internal", pool=10, level="info"):
    return (f"[database]\nhost = {host}\npool_size = {pool}\nport = 5432\n\n"
            f"[logging]\nlevel = {level}\nformat = json\n")


def _env(workers=4, level="info", region="eu-west-1"):
    return (f"WORKER_COUNT={workers}\nLOG_LEVEL={level}\nAWS_REGION={region}\n"
            f"FEATURE_FLAGS_URL=http://flags.internal:4242\n")


CONFIGS = [
    # (name, family, path, key, values, extra kind, render(v), question)
    ("toml-billing-port", "config TOML", "config/billing/production.toml", "server.port",
     ["8000", "8080"], "port", lambda v: _toml(v),
     "Which port does the billing API listen on in production?"),
    ("toml-billing-workers", "config TOML", "config/billing/production.toml", "server.workers",
     ["4", "2", "6"], "int", lambda v: _toml(8080, workers=v),
     "How many worker processes does the billing server run in production?"),
    ("toml-billing-host", "config TOML", "config/billing/production.toml", "server.host",
     ["0.0.0.0", "127.0.0.1"], "host", lambda v: _toml(8080, host=v),
     "What host address does the billing server bind in production?"),
    ("yaml-orders-port", "config YAML", "deploy/orders.yaml", "service.port",
     ["9000", "9100", "8900"], "port", lambda v: _yaml(v),
     "On which port is the orders service exposed?"),
    ("yaml-orders-timeout", "config YAML", "deploy/orders.yaml", "http.read_timeout",
     ["30", "45"], "int", lambda v: _yaml(9000, timeout=v),
     "What's the HTTP read timeout for the orders service?"),
    ("yaml-orders-replicas", "config YAML", "deploy/orders.yaml", "service.replicas",
     ["3", "5", "2"], "int", lambda v: _yaml(9000, replicas=v),
     "How many replicas of the orders service do we deploy?"),
    ("json-cache-port", "config JSON", "settings/cache.json", "cache.port",
     ["6379", "6380"], "port", lambda v: _json(v),
     "What port is the cache server on?"),
    ("json-cache-host", "config JSON", "settings/cache.json", "cache.host",
     ["cache.internal", "redis-a.internal"], "host", lambda v: _json(6379, host=v),
     "Which host does the cache client connect to?"),
    ("json-cache-ttl", "config JSON", "settings/cache.json", "cache.ttl_seconds",
     ["300", "120", "900"], "int", lambda v: _json(6379, ttl=v),
     "How long do cache entries live, in seconds?"),
    ("ini-db-host", "config INI", "setup/database.ini", "database.host",
     ["db1.internal", "db2.internal"], "host", lambda v: _ini(host=v),
     "Which database host do we connect to?"),
    ("ini-db-pool", "config INI", "setup/database.ini", "database.pool_size",
     ["10", "25", "15"], "int", lambda v: _ini(pool=v),
     "What is the database connection pool size?"),
    ("ini-log-level", "config INI", "setup/database.ini", "logging.level",
     ["info", "warning"], "level", lambda v: _ini(level=v),
     "What log level is configured for the database layer?"),
    ("env-workers", "config .env", ".env", "WORKER_COUNT",
     ["4", "8", "3"], "int", lambda v: _env(workers=v),
     "How many background workers are started?"),
    ("env-log-level", "config .env", ".env", "LOG_LEVEL",
     ["info", "debug"], "level", lambda v: _env(level=v),
     "Which log level does the app run with?"),
    ("env-region", "config .env", ".env", "AWS_REGION",
     ["eu-west-1", "us-east-2"], "region", lambda v: _env(region=v),
     "Which AWS region is the app deployed to?"),
]

_REGIONS = ["ap-south-1", "eu-central-1", "us-west-2", "ca-central-1", "sa-east-1", "eu-north-1",
            "ap-northeast-1", "af-south-1", "me-south-1", "eu-south-1", "ap-east-1", "il-central-1"]


def _configs(many: bool) -> list[dict]:
    out = []
    for name, family, path, key, values, kind, render, q in CONFIGS:
        values = list(values)
        if many:
            extra = ([r for r in _REGIONS if r not in values][:EXTRA] if kind == "region"
                     else _extra(kind, EXTRA, values))
            values = extra + values
        out.append(_chain(
            name, family, values, lambda v, p, path=path, render=render: {path: render(v)}, q,
            {"kind": "config", "keys": [f"config:{path}:{key}"]},
            lambda v, key=key, path=path: f"{path}: {key} = {v}"))
    return out


# ------------------------------------------------------------------------------------- constants

CONSTANTS = [
    ("payments/settings.py", "MAX_RETRIES", "How many times a failed capture is retried.",
     ["3", "5"], "How many times is a failed payment capture retried?"),
    ("web/session.py", "SESSION_TIMEOUT", "Seconds before an idle session is signed out.",
     ["1800", "3600", "900"], "How long before an idle web session is signed out?"),
    ("api/pagination.py", "PAGE_SIZE", "Items per page in list endpoints.",
     ["50", "100", "25"], "How many items per page do the list endpoints return?"),
]


def _constant_file(name, comment, v):
    return (f'"""Settings for this package."""\n\n# {comment}\n{name} = {v}\n'
            f'CURRENCY = "EUR"\nREQUEST_ID_HEADER = "X-Request-Id"\n')


def _constants(many: bool) -> list[dict]:
    out = []
    for path, name, comment, values, q in CONSTANTS:
        values = list(values)
        if many:
            values = _extra("int", EXTRA, values) + values
        out.append(_chain(
            f"constant-{name.lower()}", "module constant", values,
            lambda v, p, path=path, name=name, comment=comment: {
                path: _constant_file(name, comment, v)}, q,
            {"kind": "constant", "keys": [f"constant:{path}:{name}"]},
            lambda v, name=name: f"{name} = {v}"))
    return out


# ------------------------------------------------------------------------------------- dependencies

def _reqs(pins: dict) -> str:
    return "".join(f"{k}{v}\n" for k, v in sorted(pins.items()))


BASE_PINS = {"flask": "==3.0.3", "sqlalchemy": "==2.0.30", "celery": "==5.4.0", "boto3": "==1.34.0"}

DEP_BUMPS = [
    ("requests", ["==2.31.0", "==2.32.3"], "Which version of requests do we pin?"),
    ("urllib3", ["==2.2.1", "==1.26.18"], "What urllib3 version does the service require?"),
    ("pydantic", ["==2.7.1", "==1.10.15", "==2.5.3"], "Which pydantic release are we pinned to?"),
    ("redis", ["==5.0.4", "==4.6.0"], "What version of the redis client library do we use?"),
]


def _dep_bumps(many: bool) -> list[dict]:
    out = []
    for pkg, values, q in DEP_BUMPS:
        values = list(values)
        if many:
            values = _extra("pin", EXTRA, values) + values
        out.append(_chain(
            f"dep-{pkg}", "dependency pin", values,
            lambda v, p, pkg=pkg: {"requirements.txt": _reqs({**BASE_PINS, pkg: v})}, q,
            {"kind": "dependency", "keys": [f"dependency:pypi:.:main:{pkg}"]},
            lambda v, pkg=pkg: f"requirements: {pkg}{v}"))
    return out


DEP_REMOVED = [
    ("simplejson", ["==3.19.1", "==3.18.4"], "Which version of simplejson do we depend on?"),
    ("six", ["==1.16.0"], "What version of six is in our requirements?"),
    ("pytz", ["==2024.1", "==2023.3"], "Which pytz version do we pin?"),
]


def _dep_removed(many: bool) -> list[dict]:
    out = []
    for pkg, values, q in DEP_REMOVED:
        values = list(values)
        if many:
            values = _extra("pin", EXTRA, values) + values
        out.append(_chain(
            f"dep-gone-{pkg}", "dependency removed", values,
            lambda v, p, pkg=pkg: {"requirements.txt": _reqs({**BASE_PINS, pkg: v})}, q,
            {"kind": "dependency", "keys": [f"dependency:pypi:.:main:{pkg}"]},
            lambda v, pkg=pkg: f"requirements: {pkg}{v}",
            ending=("delete", f"requirements: without {pkg}",
                    lambda v: {"requirements.txt": _reqs(BASE_PINS)})))
    return out


# ------------------------------------------------------------------------------------- routes

_ROUTES_FILE = '''\
"""HTTP handlers."""

from app import app, db


@app.get("/health")
def health():
    """Liveness probe."""
    return {{"ok": True}}


@app.{verb}("{route}")
def {fname}({arg}):
    """{doc}"""
    row = db.query({table!r}, limit=1, key={arg})
    if row is None:
        return {{"error": "not found"}}, 404
    return row
'''

ROUTES = [
    ("api/users.py", "get", "show_user", "user_id", "Return the public profile of a user.",
     "profiles", ["/api/users/<int:user_id>", "/users/<int:user_id>/profile"],
     "Which URL path serves a user's public profile?"),
    ("api/orders.py", "post", "cancel_order", "order_id", "Cancel an order that has not shipped.",
     "orders", ["/orders/<order_id>/cancel", "/api/orders/<order_id>/cancellation"],
     "What is the endpoint to cancel an order that has not shipped?"),
    ("api/files.py", "get", "download_file", "file_id", "Stream an uploaded file to the client.",
     "files", ["/files/<file_id>", "/media/<file_id>/download", "/blobs/<file_id>"],
     "Which route streams an uploaded file to the client?"),
]


def _routes(many: bool) -> list[dict]:
    out = []
    for path, verb, fname, arg, doc, table, values, q in ROUTES:
        values = list(values)
        if many:
            values = [f"{r}/<{arg}>" for r in _extra("route", EXTRA, values)] + values
        out.append(_chain(
            f"route-{fname}", "API route", values,
            lambda v, p, path=path, verb=verb, fname=fname, arg=arg, doc=doc, table=table: {
                path: _ROUTES_FILE.format(verb=verb, route=v, fname=fname, arg=arg, doc=doc,
                                          table=table)}, q,
            {"kind": "route", "anchors": [f"{path}::{fname}"]},
            lambda v, fname=fname: f"serve {fname} at {v}",
            base={"app/__init__.py": "app = None\n",
                  "app/db.py": "def query(table, limit, key):\n    return None\n"},
            shown=lambda v, verb=verb: f"{verb.upper()} {v}"))
    return out


# ------------------------------------------------------------------------------------- scoped pairs

SCOPED = [
    # (service, key, production values, staging values, question template)
    ("checkout", "server.port", ["8000", "8080"], ["8000"],
     "Which port does the checkout service listen on in {env}?"),
    ("ledger", "database.pool_size", ["10", "40", "20"], ["5", "10"],
     "How big is the ledger database pool in {env}?"),
    ("gateway", "server.workers", ["8", "16"], ["2", "8"],
     "How many gateway workers run in {env}?"),
]


def _scoped_toml(key, v):
    port = v if key == "server.port" else "8443"
    workers = v if key == "server.workers" else "4"
    pool = v if key == "database.pool_size" else "10"
    return (f'[server]\nport = {port}\nworkers = {workers}\n\n[database]\npool_size = {pool}\n')


def _scoped(many: bool) -> list[dict]:
    out = []
    for svc, key, prod, stag, q in SCOPED:
        prod, stag = list(prod), list(stag)
        kind = "port" if key == "server.port" else "int"
        if many:
            prod = _extra(kind, EXTRA, prod + stag) + prod
            stag = _extra(kind, EXTRA, prod + stag)[::-1][:EXTRA] + stag
        # interleave: production's history on even commits, staging's on odd ones
        paths = {"production": f"config/{svc}/production.toml",
                 "staging": f"config/{svc}/staging.toml"}
        commits, as_of = [], {"production": [], "staging": []}
        state = {"production": prod[0], "staging": stag[0]}
        commits.append((_date(0), f"{svc}: production and staging settings", {
            paths[e]: _scoped_toml(key, state[e]) for e in paths}))
        # interleave the two environments' histories
        events = []
        for i in range(max(len(prod), len(stag))):
            if i and i < len(prod):
                events.append(("production", prod[i]))
            if i and i < len(stag):
                events.append(("staging", stag[i]))
        for e in paths:
            as_of[e].append([_between(0), state[e]])
        for i, (env, v) in enumerate(events, start=1):
            state[env] = v
            commits.append((_date(i), f"{svc}: {env} {key} = {v}",
                            {paths[env]: _scoped_toml(key, v)}))
            for e in paths:
                as_of[e].append([_between(i), state[e]])
        qs = []
        for env, hist in (("production", prod), ("staging", stag)):
            qs.append({"question": q.format(env=env),
                       "about": {"kind": "config", "keys": [f"config:{paths[env]}:{key}"]},
                       "field": "value", "answer": state[env],
                       "stale": sorted({v for v in hist if v != state[env]}),
                       "as_of": as_of[env]})
        out.append({"name": f"scoped-{svc}", "family": "scoped pair", "commits": commits,
                    "questions": qs})
    return out


# ------------------------------------------------------------------------------------- sets

def _classifiers(pys):
    cls = "\n".join(f'    "Programming Language :: Python :: {p}",' for p in pys)
    return (f'[project]\nname = "svc"\nversion = "1.0.0"\ndependencies = [\n    "flask>=3",\n]\n'
            f'classifiers = [\n{cls}\n]\n')


def _workflow(pys):
    items = ", ".join(f'"{p}"' for p in pys)
    return ("name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-24.04\n    strategy:\n"
            f"      matrix:\n        python-version: [{items}]\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: pytest -q\n")


SETS = [
    ("classifiers", "pyproject.toml", _classifiers, "python:classifiers:pyproject.toml",
     [("3.10", "3.11"), ("3.11", "3.12")], "Which Python versions does the package support?"),
    ("classifiers-shrink", "pyproject.toml", _classifiers, "python:classifiers:pyproject.toml",
     [("3.9", "3.10", "3.11", "3.12"), ("3.11", "3.12"), ("3.10", "3.11", "3.12")],
     "What Python versions are declared as supported in the package metadata?"),
    ("ci-matrix", ".github/workflows/ci.yml", _workflow,
     "python:ci-matrix:.github/workflows/ci.yml:test",
     [("3.11", "3.12"), ("3.12", "3.13"), ("3.10", "3.11", "3.12")],
     "Which Python versions does CI run the tests on?"),
]


def _set_text(pys) -> str:
    from repomem.core.model import set_value

    return set_value(pys)


def _sets(many: bool) -> list[dict]:
    out = []
    for name, path, render, key, values, q in SETS:
        values = list(values)
        if many:
            have = {_set_text(v) for v in values}
            extra = [v for v in _extra("set", 21, []) if _set_text(v) not in have]
            values = extra[:EXTRA] + values
        out.append(_chain(
            f"set-{name}", "set-valued", values,
            lambda v, p, path=path, render=render: {path: render(v)}, q,
            {"kind": "python", "keys": [key]},
            lambda v: "python versions: " + " ".join(v), shown=_set_text))
    return out


# ------------------------------------------------------------------------------------- reverts

def _reverts(many: bool) -> list[dict]:
    specs = [
        ("revert-port", "config/notify/production.toml", ["9090", "9191"], "port",
         lambda v: _toml(v), "config", "config:config/notify/production.toml:server.port",
         "What port does the notification service listen on in production?"),
        ("revert-retries", "jobs/settings.py", ["3", "7"], "int",
         lambda v: _constant_file("JOB_RETRIES", "Attempts per background job.", v), "constant",
         "constant:jobs/settings.py:JOB_RETRIES", "How many attempts does a background job get?"),
        ("revert-pin", "requirements.txt", ["==2.2.1", "==2.3.0"], "pin",
         lambda v: _reqs({**BASE_PINS, "jinja2": v}), "dependency", "dependency:pypi:.:main:jinja2",
         "Which jinja2 version do we pin?"),
    ]
    out = []
    for name, path, values, kind, render, fkind, key, q in specs:
        values = list(values)
        if many:
            values = _extra(kind, EXTRA, values) + values
        out.append(_chain(name, "revert", values,
                          lambda v, p, path=path, render=render: {path: render(v)}, q,
                          {"kind": fkind, "keys": [key]},
                          lambda v, path=path: f"{path}: {v}", ending="revert"))
    return out


# ------------------------------------------------------------------------------------- deletions

def _deletions(many: bool) -> list[dict]:
    out = []
    # a constant that goes away with no successor
    values = ["250", "500"]
    if many:
        values = _extra("int", EXTRA, values) + values

    def const_file(v):
        body = '"""Upload limits."""\n\nCHUNK_SIZE = 65536\n'
        if v is not None:
            body += f"# Largest upload accepted, in megabytes.\nMAX_UPLOAD_MB = {v}\n"
        return body

    out.append(_chain("delete-constant", "deleted fact", values,
                      lambda v, p: {"uploads/limits.py": const_file(v)},
                      "What is the largest upload accepted, in megabytes?",
                      {"kind": "constant", "keys": ["constant:uploads/limits.py:MAX_UPLOAD_MB"]},
                      lambda v: f"uploads: MAX_UPLOAD_MB = {v}",
                      ending=("delete", "uploads: one limit fewer",
                              lambda v: {"uploads/limits.py": const_file(None)})))
    # a config key that goes away
    values = ["30", "60"]
    if many:
        values = _extra("int", EXTRA, values) + values

    def yaml_file(v):
        body = "worker:\n  concurrency: 4\n"
        if v is not None:
            body += f"  visibility_timeout: {v}\n"
        return body + "  queue: default\n"

    out.append(_chain("delete-config", "deleted fact", values,
                      lambda v, p: {"deploy/worker.yaml": yaml_file(v)},
                      "What is the queue visibility timeout of the worker?",
                      {"kind": "config", "keys": ["config:deploy/worker.yaml:worker.visibility_timeout"]},
                      lambda v: f"worker: visibility_timeout {v}",
                      ending=("delete", "worker: simpler queue settings",
                              lambda v: {"deploy/worker.yaml": yaml_file(None)})))
    # a function that goes away (its file stays)
    names = ["export_csv", "dump_csv"]
    if many:
        names = _extra("csv", EXTRA, names) + names
    doc = "Write all orders of a month to a CSV file."

    def exports(v):
        text = _HEADER.format(module="exports")
        if v is not None:
            text += "\n\n" + _FUNC.format(name=v, args="key", doc=doc, table="orders", limit=50,
                                          key="key")
        return text

    out.append(_chain("delete-function", "deleted fact", names,
                      lambda v, p: {"reports/exports.py": exports(v)},
                      "Which function writes a month of orders to a CSV file?",
                      {"kind": "function", "anchors": [f"reports/exports.py::{n}" for n in names]},
                      lambda v: f"exports: {v}",
                      base={"app/__init__.py": "",
                            "app/db.py": "def query(table, limit, key):\n    return []\n",
                            "app/audit.py": "def log(table, row):\n    return None\n"},
                      ending=("delete", "exports: orders go through the warehouse job",
                              lambda v: {"reports/exports.py": exports(None)})))
    return out


# ------------------------------------------------------------------------------------- noise

NOISE_SERVICES = ["inventory", "catalog", "mailer", "media", "geo", "pricing", "loyalty", "audit",
                  "webhooks", "scheduler"]


def noise_files(variant: int = 0) -> dict:
    """An unrelated code base (~35 facts per service); ``variant`` shifts some of its values."""
    files = {}
    for s, svc in enumerate(NOISE_SERVICES):
        port = 7100 + 10 * s + variant
        files[f"services/{svc}/config.toml"] = (
            f'[server]\nport = {port}\nworkers = {2 + (s + variant) % 6}\nhost = "0.0.0.0"\n\n'
            f'[database]\npool_size = {5 + s}\nstatement_timeout_ms = {1000 * (1 + s % 4)}\n\n'
            f'[limits]\nmax_items = {100 + 7 * s}\nburst = {10 + s}\n')
        files[f"services/{svc}/settings.py"] = (
            f'"""{svc.title()} settings."""\n\n' + "".join(
                f"# {svc} {label}.\n{name} = {val}\n" for name, label, val in [
                    ("BATCH_SIZE", "batch size for bulk jobs", 50 + s + variant),
                    ("CACHE_SECONDS", "cache lifetime in seconds", 60 * (s + 1)),
                    ("RETRY_LIMIT", "attempts before giving up", 2 + s % 5),
                    ("PAGE_LIMIT", "rows per listing page", 20 + s),
                    ("LOCK_SECONDS", "lock lease in seconds", 15 + s),
                    ("QUEUE_NAME", "queue for async work", f'"{svc}-jobs"'),
                ]))
        files[f"services/{svc}/handlers.py"] = (
            f'"""{svc.title()} HTTP handlers."""\n\nfrom app import app, db\n' + "".join(
                f'\n\n@app.{verb}("/{svc}/{res}")\ndef {verb}_{svc}_{res}(item_id=None):\n'
                f'    """{doc} for {svc}."""\n    rows = db.query("{svc}_{res}", limit={10 + s}, '
                f'key=item_id)\n    return rows or []\n'
                for verb, res, doc in [("get", "items", "List items"),
                                       ("post", "items", "Create an item"),
                                       ("get", "stats", "Report usage statistics"),
                                       ("delete", "cache", "Flush cached entries")]))
        files[f"services/{svc}/requirements.txt"] = "".join(
            f"{pkg}=={1 + (s + i) % 4}.{(s * 3 + i + variant) % 20}.{i % 3}\n"
            for i, pkg in enumerate(["httpx", "orjson", "structlog", "tenacity", "attrs",
                                     "click", "rich", "jsonschema"]))
    return files


def _with_noise(scn: dict) -> dict:
    """Noise in the first commit, and a second noise commit in the middle of the history."""
    commits = [list(c) for c in scn["commits"]]
    first = dict(commits[0][2])
    first.update(noise_files(0))
    commits[0][2] = first
    mid = max(1, len(commits) // 2)
    date = commits[mid - 1][0]
    # the noise edit lands an hour after commit mid-1; reverts refer to indexes, so shift them
    noise = (date.replace("T10:00:00", "T11:00:00"), "services: tune limits", noise_files(1))
    out = commits[:mid] + [list(noise)] + commits[mid:]
    for c in out:
        if "revert" in c[2] and c[2]["revert"] >= mid:
            c[2] = {"revert": c[2]["revert"] + 1}
    return dict(scn, commits=[tuple(c) for c in out])


# ------------------------------------------------------------------------------------- the suite

def scenarios(versions: str = "base", noise: bool = False) -> list[dict]:
    many = versions == "many"
    out = (_renames(False, many) + _renames(True, many) + _moves(many) + _configs(many)
           + _constants(many) + _dep_bumps(many) + _dep_removed(many) + _routes(many)
           + _scoped(many) + _sets(many) + _reverts(many) + _deletions(many))
    if noise:
        out = [_with_noise(s) for s in out]
    return out


# One scenario per family: the subset ``python -m bench stale --quick`` runs.
QUICK = ["rename-users", "rename-edit-invoices", "move-shipping", "toml-billing-port",
         "yaml-orders-port", "json-cache-ttl", "ini-db-pool", "env-region",
         "constant-session_timeout", "dep-urllib3", "dep-gone-simplejson", "route-download_file",
         "scoped-checkout", "set-ci-matrix", "revert-port", "delete-function"]

"""Express routers mounted across files, composed by the ledger on a real git history: the mount
prefix changing in one file gives the routes of another file a new version."""

from __future__ import annotations

from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from tests.conftest import commit

APP = """\
const express = require('express');
const users = require('./routes/users');
import { api } from './routes/api';

const app = express();
app.use('{prefix}', users);
app.use(api.routes());
"""
USERS = """\
var express = require('express');
var router = express.Router();

/** List every user. */
router.get('/', function (req, res) {
  res.json(db.users);
});

router.post('/:id', updateUser);

function updateUser(req, res) {
  db.update(req.params.id, req.body);
}

module.exports = router;
"""
API = """\
import Router from '@koa/router';

export const api = new Router({ prefix: '/api' });
api.get('/health', (ctx) => { ctx.body = 'ok'; });
"""


def _routes(repo, as_of=None):
    return {f["value"]: f for f in facts(Repo.open(repo), as_of=as_of, kind="route")["facts"]}


def test_mount_prefix_composes_and_supersedes(new_repo):
    repo = new_repo()
    commit(repo, "2026-03-01T10:00:00+00:00", "app", {
        "src/app.js": APP.replace("{prefix}", "/users"), "src/routes/users.js": USERS,
        "src/routes/api.ts": API})
    c2 = commit(repo, "2026-03-02T10:00:00+00:00", "users under /v2/users",
                {"src/app.js": APP.replace("{prefix}", "/v2/users")})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    assert set(_routes(repo, "2026-03-01T12:00:00+00:00")) == {
        "GET /users/", "POST /users/:id", "GET /api/health"}
    now = _routes(repo)
    assert set(now) == {"GET /v2/users/", "POST /v2/users/:id", "GET /api/health"}
    get = now["GET /v2/users/"]
    assert get["commit"] == c2 and get["path"] == "src/routes/users.js"
    assert get["purpose"].startswith("List every user.")
    assert [v["value"] for v in history(r, get["key"])["versions"]] == ["GET /users/", "GET /v2/users/"]
    post = now["POST /v2/users/:id"]
    assert post["attrs"]["handler"] == "updateUser" and post["key"].startswith("route:")
    assert {f["kind"] for f in facts(r)["facts"]} <= {"route", "function", "config", "dependency"}


def test_check_reports_stale_mentions_in_comments_only(new_repo):
    from repomem.service.check import check_tree

    repo = new_repo()
    commit(repo, "2026-03-01T10:00:00+00:00", "app", {
        "src/app.js": APP.replace("{prefix}", "/users"), "src/routes/users.js": USERS,
        "src/routes/api.ts": API, "src/config.ts": "export const MAX_RETRIES = 3;\n"})
    commit(repo, "2026-03-02T10:00:00+00:00", "v2", {
        "src/app.js": APP.replace("{prefix}", "/v2/users"),
        "src/config.ts": "export const MAX_RETRIES = 5;\n"})
    commit(repo, "2026-03-03T10:00:00+00:00", "client", {"src/client.ts": """\
/*
  Talks to POST /users/:id (retries: MAX_RETRIES = 3).
*/
export async function save(id: string) {
  // the old endpoint was /users/42/profile, kept in a string below
  return fetch("http://api.local/users/42", { method: "POST" });
}
"""})
    ingest(Repo.open(repo), all_history=True, progress=False)
    found = sorted((f["path"], f["line"], f["stale_value"]) for f in check_tree(Repo.open(repo))["findings"])
    assert found == [("src/client.ts", 2, "3"), ("src/client.ts", 2, "POST /users/:id")]

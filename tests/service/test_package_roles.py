"""A role a package fills, asked without the package's name: "which orm does the project use?",
"what is used to hash passwords?" (data/package_roles.toml).  Before, none of these found the
dependency on the real histories: node-express-realworld's "which orm ..." gave three
middlewares, microblog's "which task queue ..." the Task model, httpx's "which type checker ..."
a class called UnsetType."""

from __future__ import annotations

import tomllib
from importlib import resources

from repomem.core.tokens import norm_ident
from repomem.service.query import ask
from repomem.service.question import package_roles
from tests.conftest import indexed

PYPROJECT = """[project]
name = "shop"
version = "1.0"
requires-python = ">=3.11"
dependencies = ["Flask>=3", "Flask_SQLAlchemy==3.1.1", "bcrypt>=4", "rq==1.15.1", "%s"]

[project.optional-dependencies]
typing = ["mypy"]
tests = ["pytest", "coverage"]
"""
MODELS_PY = '''import bcrypt
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
ORM_ECHO = False


def hash_password(password):
    """Hash a password with a fresh salt before it is stored."""
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt())


class Task(db.Model):
    """A background job queued for a user."""
    name = db.Column(db.String(128))
'''


def test_a_role_asked_is_the_dependency_that_fills_it(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pyproject.toml": PYPROJECT % "gunicorn",
                                                      "shop/models.py": MODELS_PY}),
                ("2024-06-01T10:00:00Z", {"pyproject.toml": PYPROJECT % "uwsgi"}))
    for question, name in (("which orm does the project use?", "flask-sqlalchemy"),
                           ("what is used to hash passwords?", "bcrypt"),
                           ("which type checker is used?", "mypy"),
                           ("which task queue does the shop use?", "rq"),
                           ("which test framework do the tests use?", "pytest"),
                           # a role's package is current: uwsgi replaced gunicorn
                           ("which web server runs the app in production?", "uwsgi")):
        got = ask(r, question)["facts"]
        assert got[0]["kind"] == "dependency" and \
            norm_ident(got[0]["key"].rsplit(":", 1)[-1]) == norm_ident(name), (question, [f["key"] for f in got])
    # how it is done is code, not the package it calls
    got = ask(r, "how are passwords hashed?")["facts"]
    assert got[0]["key"].startswith("function:"), [f["key"] for f in got]


def test_a_role_is_asked_by_its_phrase_after_which_or_what():
    orm = package_roles("which orm does the project use?")
    assert {"sqlalchemy", "@prisma/client", "mongoose"} <= orm and "pytest" not in orm
    assert package_roles("which python orm is used?") == orm  # a word before the role
    assert package_roles("which library sends emails?") >= {norm_ident("flask-mail"), "nodemailer"}
    assert "bcryptjs" in package_roles("what is used to hash passwords?")
    assert "prettier" in package_roles("what does the project use to format the code?")
    for question in ("what is the orm setting?",  # a setting named after it
                     "what is the secret used to sign jwts?",
                     "which setting of the app configures the test runner?",
                     "how are passwords hashed?",  # how: the code
                     "how many test runners are there?",  # a number
                     "what is the default search backend?",  # a setting's value
                     "what view engine is used by default?",
                     "which linter config is used?",
                     "which function sends email asynchronously?",  # a function asked
                     "which middleware serves static files?"):
        assert not package_roles(question), question


def test_the_roles_file_is_well_formed():
    """Every role has phrases and packages; a phrase belongs to one role; names are written as
    manifests declare them, in lower case."""
    text = resources.files("repomem").joinpath("data", "package_roles.toml").read_text("utf-8")
    roles = tomllib.loads(text)
    assert len(roles) >= 20
    seen: dict[str, str] = {}
    for role, body in roles.items():
        assert set(body) == {"asked", "packages"} and body["asked"] and body["packages"], role
        for phrase in body["asked"]:
            assert seen.setdefault(phrase, role) == role, (phrase, role, seen[phrase])
        assert all(p == p.lower() and p.strip() == p for p in body["packages"]), role
    assert norm_ident("Flask_SQLAlchemy") == norm_ident("flask.sqlalchemy") == norm_ident("flask-sqlalchemy")
    assert norm_ident("@Prisma/client") == "@prisma/client"

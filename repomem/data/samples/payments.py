"""A payment service whose port, session timeout, dependency pins, function names and API
routes evolve, with staging/production scopes, a supported-Python set, a broken intermediate
commit and a revert.  Built on demand by ``repomem.samples.build`` (no nested .git is committed);
shipped as package data so that ``repomem demo`` works from an installed wheel.

COMMITS: (date, message, {path: content or None to delete}) -- or (date, message, {"revert": i}).
EXPECTED: questions a developer would ask, with the value that must come first ("answer"),
optionally as of a date, and values that must not appear ("never").
"""

APP_V1 = '''\
from flask import Flask, jsonify

from payments.db import Session, User, Payment

app = Flask(__name__)


@app.get("/api/v1/users/<int:user_id>")
def get_user_by_id(user_id: int):
    """Look up a user by primary key."""
    with Session() as session:
        user = session.get(User, user_id)
        if user is None:
            return jsonify({"error": "no such user"}), 404
        return jsonify(user.to_dict())


@app.post("/api/v1/payments")
def create_payment():
    """Create a payment for the signed-in user and queue it for capture."""
    with Session() as session:
        payment = Payment.from_request()
        session.add(payment)
        session.commit()
        return jsonify(payment.to_dict()), 201


def format_amount(cents: int, currency: str) -> str:
    """Render an amount in minor units as a display string."""
    return f"{cents / 100:.2f} {currency.upper()}"
'''

APP_V2 = APP_V1.replace("def get_user_by_id(user_id: int):", "def fetch_user(user_id: int):")
APP_V3 = APP_V2.replace('@app.get("/api/v1/users/<int:user_id>")',
                        '@app.get("/api/v2/users/<int:user_id>")')
APP_V4 = APP_V3.split("\n\ndef format_amount")[0] + "\n"

SETTINGS = '''\
"""Service-wide settings."""

# Seconds before an idle session is signed out.
SESSION_TIMEOUT = {timeout}
# How many times a failed payment capture is retried.
MAX_RETRIES = {retries}
CURRENCY = "EUR"
'''

PROD = '''\
[server]
host = "0.0.0.0"
port = {port}
workers = 4

[database]
pool_size = 10
'''

STAGING = '''\
[server]
host = "0.0.0.0"
port = 8000
workers = 2

[database]
pool_size = 2
'''

PYPROJECT = '''\
[project]
name = "payments"
version = "{version}"
requires-python = "{requires}"
dependencies = [
{deps}
]
classifiers = [
{classifiers}
]
'''


def pyproject(version, requires, deps, pythons):
    return PYPROJECT.format(
        version=version, requires=requires,
        deps="\n".join(f'    "{d}",' for d in deps),
        classifiers="\n".join(f'    "Programming Language :: Python :: {p}",' for p in pythons))


DEPS_1 = ["flask>=2.3", "requests==2.31.0", "simplejson==3.19.1", "sqlalchemy>=2.0"]
DEPS_2 = ["flask>=2.3", "requests==2.32.3", "sqlalchemy>=2.0"]

COMMITS = [
    ("2026-01-05T10:00:00+00:00", "Payment service: users and payments API", {
        "payments/__init__.py": "",
        "payments/app.py": APP_V1,
        "payments/settings.py": SETTINGS.format(timeout=1800, retries=3),
        "config/production.toml": PROD.format(port=8000),
        "config/staging.toml": STAGING,
        "pyproject.toml": pyproject("1.0.0", ">=3.10", DEPS_1, ["3.10", "3.11"]),
        "requirements-dev.txt": "pytest==7.4.0\nruff==0.4.4\n",
        ".env": "PAYMENTS_API_TOKEN=tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0\nLOG_LEVEL=info\n",
    }),
    ("2026-02-10T09:30:00+00:00", "Serve production on 8080 behind the new load balancer", {
        "config/production.toml": PROD.format(port=8080),
    }),
    ("2026-02-20T14:00:00+00:00", "Name the user lookup after what it does", {
        "payments/app.py": APP_V2,
    }),
    ("2026-03-03T11:15:00+00:00", "Version the users API; sessions last an hour", {
        "payments/app.py": APP_V3,
        "payments/settings.py": SETTINGS.format(timeout=3600, retries=3),
    }),
    ("2026-03-10T09:00:00+00:00", "Retry failed captures five times", {
        "payments/settings.py": SETTINGS.format(timeout=3600, retries=5),
    }),
    ("2026-03-15T16:45:00+00:00", "Bump requests, drop simplejson, support Python 3.12", {
        "payments/app.py": APP_V4,
        "pyproject.toml": pyproject("1.1.0", ">=3.11", DEPS_2, ["3.11", "3.12"]),
        "requirements-dev.txt": "pytest==8.2.0\nruff==0.4.4\n",
    }),
    ("2026-04-01T08:00:00+00:00", "WIP: tune database pool", {
        "config/production.toml": PROD.format(port=8080).replace("pool_size = 10", "pool_size = [20"),
    }),
    ("2026-04-02T08:30:00+00:00", "Fix production config syntax", {
        "config/production.toml": PROD.format(port=8080).replace("pool_size = 10", "pool_size = 20"),
    }),
    ("2026-04-10T12:00:00+00:00", "Revert retry change", {"revert": 4}),
    ("2026-04-20T10:00:00+00:00", "Rotate the API token", {
        ".env": "PAYMENTS_API_TOKEN=tok_0a1b2c3d4e5f60718293a4b5c6d7e8f9\nLOG_LEVEL=info\n",
    }),
]

EXPECTED = [
    {"question": "What port does the payment service listen on in production?",
     "answer": "8080", "never": ["8000"]},
    {"question": "What port does the payment service listen on in production?",
     "as_of": "2026-02-01", "answer": "8000"},
    {"question": "What port does staging listen on?", "answer": "8000"},
    {"question": "What is the function that looks up a user by primary key called now?",
     "answer": "fetch_user", "never": ["get_user_by_id"]},
    {"question": "What is the function that looks up a user by primary key called?",
     "as_of": "2026-02-15", "answer": "get_user_by_id"},
    {"question": "Which URL path serves the user lookup endpoint?",
     "answer": "GET /api/v2/users/<int:user_id>", "never": ["/api/v1/users/<int:user_id>"]},
    {"question": "Which URL path serves the user lookup endpoint?", "as_of": "2026-02-25",
     "answer": "GET /api/v1/users/<int:user_id>"},
    {"question": "How long is the session timeout?", "answer": "3600", "never": ["1800"]},
    {"question": "How long is the session timeout?", "as_of": "2026-02-01", "answer": "1800"},
    {"question": "Which version of requests do we depend on?", "answer": "==2.32.3",
     "never": ["==2.31.0"]},
    {"question": "Which version of requests do we depend on?", "as_of": "2026-03-01",
     "answer": "==2.31.0"},
    {"question": "Which Python versions are supported?", "answer": "3.11, 3.12",
     "never": ["3.10, 3.11"]},
    {"question": "How many times is a failed payment retried?", "answer": "3"},
    {"question": "How many times is a failed payment retried?", "as_of": "2026-04-01",
     "answer": "5"},
    {"question": "What is the database pool size in production?", "answer": "20"},
]

import os
from datetime import timedelta


def envbool(name, default):
    return os.getenv(name, default) == "True"


def envint(name, default):
    return int(os.getenv(name, default))


DEBUG = envbool("DEBUG", "False")
PING_TIMEOUT = envint("PING_TIMEOUT", "30")
MAX_UPLOAD = 32 << 20  # bytes
SESSION_AGE = timedelta(days=31)
BASE_DIR = os.path.dirname(os.path.abspath(__file__))
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.getenv("DB_NAME", "hc"),
    }
}

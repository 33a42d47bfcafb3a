import os

DEBUG = os.environ.get("DEBUG", "false") == "true"
database_url = os.getenv("DATABASE_URL", "sqlite:///app.db")

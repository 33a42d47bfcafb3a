from pydantic import Field, PostgresDsn
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    DATABASE_URL: PostgresDsn
    PROJECT_NAME: str = Field("api", max_length=255)
    API_PREFIX: str = "/api/v1"

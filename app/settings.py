"""Configuration from the environment (or a .env file)."""

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite:///./gpucost.db"
    """Empty databases are migrated to head and loaded with the shipped catalog at start."""


settings = Settings()

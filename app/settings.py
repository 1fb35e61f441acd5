"""Configuration from the environment (or a .env file)."""

from pathlib import Path

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: templates/, static/ and migrations/ live here."""

DEVELOPMENT_SECRET = "development-only-secret-do-not-deploy"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite:///./gpucost.db"
    """Empty databases are migrated to head and loaded with the shipped catalog at start."""
    environment: str = "development"
    secret_key: str = DEVELOPMENT_SECRET
    """Signs CSRF tokens and hashes client addresses; set SECRET_KEY outside development."""
    public_url: str | None = None
    """Where users reach the app, e.g. https://gpucost.example; share links are built on it rather
    than on the request's Host header. Unset: the request's own address."""
    admin_session_hours: int = 8
    password_hash_time_cost: int = 3
    password_hash_memory_kib: int = 65_536
    password_hash_parallelism: int = 4
    """argon2id's cost (its library's defaults): what a stolen hash costs to guess. Tests lower it."""
    skypilot_catalog_url: str = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master"
    """Where price refresh reads SkyPilot's catalogs/v8/<cloud>/vms.csv (a mirror may stand in)."""
    azure_prices_url: str = "https://prices.azure.com/api/retail/prices"
    oci_prices_url: str = "https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/?currencyCode=USD"
    ecb_rates_url: str = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
    refresh_timeout_s: float = 30.0
    catalog_versions_kept: int = 8
    catalog_bytes_kept: int = 24_000_000
    """The catalog versions the process keeps in memory, the most recently used (the newest always):
    a version is read again from the database when asked for after it was given up."""
    saves_per_client_per_10_min: int = 20
    saves_per_hour: int = 2000
    """Saved scenarios are kept for ever, so their growth is bounded per client and in all."""

    @model_validator(mode="after")
    def _real_secret_outside_development(self) -> "Settings":
        if self.environment != "development" and self.secret_key == DEVELOPMENT_SECRET:
            raise ValueError("set SECRET_KEY: the development secret is refused outside development")
        return self


settings = Settings()

"""Configuration from the environment (or a .env file)."""

import os
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import Field, IPvAnyNetwork, NonNegativeInt, PositiveFloat, PositiveInt, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: templates/, static/ and migrations/ live here."""

DEVELOPMENT_SECRET = "development-only-secret-do-not-deploy"
SECRET_KEY_MIN_BYTES = 32
"""A key shorter than this can be guessed offline from a CSRF token, and with it every token forged."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", hide_input_in_errors=True)

    database_url: str = "sqlite:///./gpucost.db"
    """Empty databases are migrated to head and loaded with the shipped catalog at start."""
    environment: str = "development"
    secret_key: str = DEVELOPMENT_SECRET
    """Signs CSRF tokens and hashes client addresses; set SECRET_KEY outside development."""
    public_url: str | None = None
    """Where users reach the app, e.g. https://gpucost.example; share links are built on it rather
    than on the request's Host header. Unset: the request's own address."""
    allowed_hosts: Annotated[list[str], NoDecode] = []
    """The host names a request may name in its Host header, comma-separated (`*.example.com`: its
    subdomains; `*`: any). Unset: PUBLIC_URL's host in production, any host in development."""
    trusted_proxies: Annotated[list[IPvAnyNetwork], NoDecode] = []
    """The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: addresses or
    networks, comma-separated (e.g. 10.0.0.5,10.1.0.0/16). Unset: none, every peer is the client."""
    worker_threads: PositiveInt = 40
    """Requests a process serves at once in worker threads (saves, saved scenarios, admin pages; the
    slider's partial and /api/quote run on the event loop): AnyIO's thread limit, set at start. The
    database pool holds one connection for each thread and one for the event loop, so no request
    waits for a connection; on PostgreSQL every process may open WORKER_THREADS + HEAVY_AT_ONCE + 2."""
    db_pool_timeout_s: PositiveFloat = 2.0
    """How long a request waits for a free database connection before it is answered 503 with
    Retry-After rather than kept waiting."""
    heavy_at_once: PositiveInt = 2
    heavy_waiting: NonNegativeInt = 8
    heavy_per_client: PositiveInt = 2
    """CPU-heavy answers (a split, history worked out afresh, any GPU, an import's plan) a process works
    out at once, each in a thread of its own; how many more may wait their turn (past it, 503); how
    many one client address may have under way or waiting (past it, 429). Each with Retry-After."""
    admin_session_hours: int = 8
    password_hash_time_cost: int = 3
    password_hash_memory_kib: int = 65_536
    password_hash_parallelism: int = 4
    """argon2id's cost (its library's defaults): what a stolen hash costs to guess. Tests lower it.
    Each check holds PASSWORD_HASH_MEMORY_KIB of memory while it runs."""
    password_checks_at_once: PositiveInt = Field(
        default_factory=lambda given: max(1, len(os.sched_getaffinity(0)) // given["password_hash_parallelism"])
    )
    """The most password checks a process runs at once, so that a burst of sign-ins costs at most this
    many times a check's memory; the others queue. Default: the cores it may use divided by
    PASSWORD_HASH_PARALLELISM, at least one, since a check runs its lanes in threads of their own (one
    below 8 cores at the default 4 lanes: on 2 cores, 16 checks took 3 s one at a time and two at once)."""
    password_check_wait_max_s: PositiveFloat = 3.0
    """A sign-in whose check would queue longer than this is answered 429 with Retry-After at once."""
    skypilot_catalog_url: str = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master"
    """Where price refresh reads SkyPilot's catalogs/v8/<cloud>/vms.csv (a mirror may stand in)."""
    gpuhunt_catalog_url: str = "https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v3"
    """Where price refresh reads dstack's gpuhunt catalogs, <provider>/version and
    <provider>/<version>/catalog.zip (gpuhunt's own GPUHUNT_CATALOG_URL may point a mirror elsewhere)."""
    azure_prices_url: str = "https://prices.azure.com/api/retail/prices"
    oci_prices_url: str = "https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/?currencyCode=USD"
    ecb_rates_url: str = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
    refresh_timeout_s: float = 30.0
    catalog_offers_max: PositiveInt = 20_000
    """The most current (not retired) offers one catalog version may hold: an import, a refresh, a new
    or restored offer or a loaded export that would bring the catalog past it is refused, so that
    what a version costs in memory and a quote's time stays bounded (README, Many instances). A
    catalog past it already still loads and quotes."""
    catalog_versions_kept: int = 8
    catalog_bytes_kept: int = 24_000_000
    """The catalog versions the process keeps in memory, the most recently used (the newest always),
    counted with the work derived from each: a version is read again from the database when asked
    for after it was given up."""
    saves_per_client_per_10_min: int = 20
    saves_per_hour: int = 2000
    """Saved scenarios are kept for ever, so their growth is bounded per client and in all."""
    uploads_per_client_per_10_min: int = 20
    uploads_per_hour: int = 1000
    """So are uploaded demand profiles (up to 60 KB each)."""

    @field_validator("trusted_proxies", "allowed_hosts", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        return [item.strip() for item in value.split(",") if item.strip()] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _real_secret_outside_development(self) -> "Settings":
        if self.environment == "development":
            return self
        if self.secret_key == DEVELOPMENT_SECRET:
            raise ValueError("set SECRET_KEY: the development secret is refused outside development")
        if len(self.secret_key.encode()) < SECRET_KEY_MIN_BYTES:
            raise ValueError(
                f"SECRET_KEY must be at least {SECRET_KEY_MIN_BYTES} bytes outside development "
                "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        if not self.public_url and not self.allowed_hosts:
            raise ValueError(
                "set PUBLIC_URL (the address users reach, e.g. https://gpucost.example) or ALLOWED_HOSTS: "
                "outside development the app answers only for the host names it is told"
            )
        return self

    def hosts_allowed(self) -> list[str]:
        """What ALLOWED_HOSTS says, else PUBLIC_URL's host outside development, else any host."""
        if self.allowed_hosts:
            return self.allowed_hosts
        host = urlsplit(self.public_url or "").hostname
        return [host] if host and self.environment != "development" else ["*"]


settings = Settings()

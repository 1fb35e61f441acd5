import pytest
from pydantic import ValidationError

from app.platform.settings import DEVELOPMENT_SECRET, Settings


@pytest.mark.parametrize("secret", ["", "x", "a" * 31, DEVELOPMENT_SECRET])
def test_production_refuses_to_start_with_a_short_or_placeholder_secret_key(secret):
    with pytest.raises(ValidationError, match="SECRET_KEY") as refused:
        Settings(_env_file=None, environment="production", secret_key=secret)  # type: ignore[call-arg]
    assert secret == "" or secret not in str(refused.value), "the refusal never prints the key"


def test_production_starts_with_a_secret_key_of_32_bytes():
    settings = Settings(
        _env_file=None, environment="production", secret_key="k" * 32, public_url="https://gpucost.example"
    )  # type: ignore[call-arg]
    assert settings.environment == "production"


def test_development_runs_on_its_placeholder_secret():
    assert Settings(_env_file=None).secret_key == DEVELOPMENT_SECRET  # type: ignore[call-arg]

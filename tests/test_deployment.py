import json
import re

import yaml

from app.platform.settings import ROOT


def test_the_container_runs_the_readmes_production_command_as_an_unprivileged_user():
    dockerfile = (ROOT / "Dockerfile").read_text()
    readme = (ROOT / "README.md").read_text()
    instructions = dict(re.findall(r"^([A-Z]+) (.+)$", dockerfile, re.M))
    command = json.loads(instructions["CMD"])
    assert " ".join(command) in readme
    assert {"--no-proxy-headers", "--no-server-header"} <= set(command)
    assert instructions["USER"] not in ("root", "0")
    assert "ENVIRONMENT=production" in instructions["ENV"] and "/api/health" in instructions["HEALTHCHECK"]


def test_the_compose_replicas_are_checked_at_the_readiness_endpoint_before_the_proxy_starts():
    services = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())["services"]
    for replica in ("app1", "app2"):
        assert "/api/health" in " ".join(services[replica]["healthcheck"]["test"])
        assert services["proxy"]["depends_on"][replica] == {"condition": "service_healthy"}


def test_the_compose_refresh_service_refreshes_every_source_on_the_replicas_database():
    services = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())["services"]
    refresh = services["refresh"]
    assert "-m app.admin refresh --all --apply" in " ".join(refresh["command"])
    assert refresh["environment"] == services["app1"]["environment"]
    assert refresh["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}

import json
import re

from app.settings import ROOT


def test_the_container_runs_the_readmes_production_command_as_an_unprivileged_user():
    dockerfile = (ROOT / "Dockerfile").read_text()
    readme = (ROOT / "README.md").read_text()
    instructions = dict(re.findall(r"^([A-Z]+) (.+)$", dockerfile, re.M))
    command = json.loads(instructions["CMD"])
    assert " ".join(command) in readme
    assert {"--no-proxy-headers", "--no-server-header"} <= set(command)
    assert instructions["USER"] not in ("root", "0")
    assert "ENVIRONMENT=production" in instructions["ENV"] and "/api/health" in instructions["HEALTHCHECK"]

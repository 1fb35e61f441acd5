"""Proves a refactor changes no rendered page: capture every kind of page before and after, then compare.

    PYTHONPATH=/path/to/old/checkout python scripts/page_identity.py capture /tmp/pages-before
    PYTHONPATH=/path/to/new/checkout python scripts/page_identity.py capture /tmp/pages-after
    python scripts/page_identity.py compare /tmp/pages-before /tmp/pages-after

`capture` starts the app of the checkout that PYTHONPATH names (default: this script's own) on a
fresh SQLite database, seeded as the app seeds itself, creates an admin with `python -m app.admin`,
and writes each answer's body to DIR/<name>.<html|json|csv|txt>, with DIR/index.txt listing each
page's status and content type. It reaches the app only through `app.main` and HTTP, so it runs
unchanged however the modules behind them move. What differs between two runs of the same code
(CSRF tokens, saved scenarios' random links, the moment something was saved) is normalised away.

`compare` ignores whitespace (runs collapsed, none between tags), prints `same` or a short diff per
page, and exits 1 if any page differs or is missing from either side.
"""

from __future__ import annotations

import argparse
import difflib
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")  # the tests ignore it too

THIS_CHECKOUT = Path(__file__).resolve().parent.parent
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(THIS_CHECKOUT))

ADMIN, PASSWORD = "alice", "page-identity-password-1"
FRAGMENT = {"HX-Request": "true"}
BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
"""What a browser asks for: a refusal of a page is then a page, not JSON."""
DIFF_LINES = 40
LINE_CHARS = 200
"""The most lines of diff printed per page, and characters of each: enough to see what moved."""

WEEK = "\n".join(" ".join(["2"] * 8 + ["6"] * 10 + ["2"] * 6) for _ in range(6)) + "\n" + " ".join(["1"] * 24)
DAY = " ".join(["1"] * 8 + ["3"] * 10 + ["2"] * 6)
MONTH = "gpus\n" + "\n".join(["2"] * 600 + ["10"] * 72)

CALCULATOR: dict[str, dict[str, Any]] = {
    "default": {},
    "hours": {"gpu": "H100", "gpu_hours": 1200, "peak_gpus": 8, "checkpoints_out": 4, "egress_gb": 500,
              "stored_gb": 2000, "assumed_egress_usd_per_gb": 0.05},
    "serve": {"job": "serve", "preset": "llama-3.1-70b", "gpu": "H100", "input_length": 467, "output_length": 256,
              "latency": "interactive", "hours_up": 500},
    "serve_measured": {"job": "serve", "preset": "llama-3.1-8b", "gpu": "H100", "output_tokens_m": 50,
                       "tokens_per": "day", "measured_tps": 2500},
    "train": {"job": "train", "preset": "llama-3.1-8b", "train_tokens_b": 1},
    "train_lora": {"job": "train", "preset": "llama-3.1-70b", "gpu": "H100", "train_mode": "lora",
                   "train_tokens_b": 2, "run_gpus": 8, "utilisation_pct": 30},
    "split_simple": {"job": "split", "gpu": "H100", "demand": "simple", "base_gpus": 4, "split_peak": 16,
                     "peak_hours": 120},
    "split_weekly": {"job": "split", "gpu": "H100", "demand": "weekly", "weekly": WEEK,
                     "split_base": "committed", "split_burst": "on_demand", "months": 12},
    "split_serving": {"job": "split", "demand": "serving", "preset": "llama-3.1-8b", "gpu": "H100",
                      "output_tokens_m": 3000, "daily": DAY, "input_length": 467, "output_length": 256,
                      "latency": "interactive"},
    "eur": {"currency": "EUR", "gpu_hours": 800},
    "any_gpu": {"gpu": "any", "preset": "llama-3.1-70b", "gpu_hours": 730},
    "sized_by_parameters": {"gpu": "any", "parameters_b": 13, "layers": 40, "hidden_size": 5120, "kv_heads": 40,
                            "head_dim": 128, "mode": "lora", "context": 4096, "sequences": 4, "weights": "fp8"},
    "owned_server": {"gpu": "H100", "gpu_hours": 3000, "peak_gpus": 8,
                     "own_server": "dgx-h100/semianalysis-2023-05", "own_capital_pct": 8},
    "owned_figures": {"gpu": "H100", "gpu_hours": 4000, "peak_gpus": 8, "own_server": "custom",
                      "own_price": 296644, "own_power_kw": 10.2, "own_currency": "EUR", "own_kwh": 0.2,
                      "own_colocation": 150, "own_operations": 500},
    "pinned_offer": {"checkpoints_out": 4, "offer": "aws:p5.4xlarge:H100:us-east-1:on_demand"},
    "committed_term": {"gpu": "H100", "gpu_hours": 5840, "peak_gpus": 8, "months": 36},
    "filters": {"gpu": "H100", "tenancy": ["bare_metal", "virtualized"], "eu_only": "on", "hide_spot": "on",
                "exclude_us_hq": "on"},
    "catalog_version": {"catalog_version": 1, "gpu_hours": 300},
    "bad_hours": {"gpu_hours": -5},
    "bad_many": {"gpu": "NoSuchGPU", "months": 0, "preset": "no-such-model"},
}  # fmt: skip
"""Each calculator state captured as its full page and as its htmx fragment."""


def query(params: dict[str, Any]) -> str:
    return urlencode(params, doseq=True)


# What differs between two runs of the same code, each replaced by a fixed word. A saved scenario's
# link is replaced where it is saved (Capture.scenario), by the order it was saved in.
CSRF_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}\.[0-9a-f]{32}")
"""A random nonce and its signature: new for every client, so for every run."""
ASSET = re.compile(r"(/static/[\w./-]+)\?v=[0-9a-f]{12}")
"""A static file's address carries its digest; the file itself is captured and compared (Capture.assets)."""


def moments_of(days: set[date]) -> re.Pattern[str]:
    """A time of day on the days of the run: when the catalog was seeded (its versions, the audit) and a
    scenario saved. A time on any other day is the catalog's data, which must not change."""
    day = "|".join(sorted(str(d) for d in days))
    return re.compile(rf"(?:{day})[T ]\d{{2}}:\d{{2}}(?::\d{{2}}(?:\.\d+)?)?(?: UTC|Z|[+-]\d{{2}}:\d{{2}})?")


class Capture:
    """Requests pages of one running app and writes each answer, normalised, under `out`."""

    def __init__(self, client: Any, out: Path) -> None:
        self.client, self.out = client, out
        self.index: list[str] = []
        self.slugs: list[str] = []
        self.static: set[str] = set()
        self.days = {datetime.now(UTC).date()}

    def normalised(self, text: str) -> str:
        text = CSRF_TOKEN.sub("CSRF-TOKEN", text)
        self.static.update(ASSET.findall(text))
        text = ASSET.sub(r"\1?v=DIGEST", text)
        text = moments_of(self.days | {datetime.now(UTC).date()}).sub("MOMENT-OF-THE-RUN", text)
        for n, slug in enumerate(self.slugs, 1):
            # A saved scenario's link is random (secrets.token_urlsafe): named by the order of saving.
            text = re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(slug)}(?![A-Za-z0-9_-])", f"SCENARIO-{n}", text)
        return text

    def write(self, name: str, response: Any) -> Any:
        kind = response.headers.get("content-type", "").split(";")[0]
        text = response.text
        if kind == "application/json":
            text = json.dumps(response.json(), indent=1, ensure_ascii=False)  # a readable diff; order kept
        suffix = {"text/html": "html", "application/json": "json", "text/csv": "csv"}.get(kind, "txt")
        (self.out / f"{name}.{suffix}").write_text(self.normalised(text) + "\n")
        self.index.append(f"{name}.{suffix} {response.status_code} {kind}")
        return response

    def get(self, name: str, path: str, fragment: bool = False) -> Any:
        return self.write(name, self.client.get(path, headers=FRAGMENT if fragment else {}))

    def page_and_fragment(self, name: str, path: str) -> None:
        self.get(name, path)
        self.get(f"{name}.fragment", path, fragment=True)

    def scenario(self, params: dict[str, Any], name: str, note: str) -> str:
        """Saves the calculator at `params` through its form, as a browser would; the new link's slug."""
        page = self.client.get(f"/?{query(params)}").text
        form = {"csrf_token": form_value(page, "csrf_token"), "inputs": form_value(page, "inputs", 'id="save-inputs"')}
        saved = self.client.post("/s", data=form | {"name": name, "note": note}, follow_redirects=False)
        if saved.status_code != 303:
            raise SystemExit(f"saving a scenario answered {saved.status_code}")
        self.slugs.append(saved.headers["location"].removeprefix("/s/"))
        return self.slugs[-1]


def form_value(page: str, name: str, marker: str = "") -> str:
    """The value of the first input named `name` (and holding `marker`) on a page."""
    for tag in re.findall(r"<input\b[^>]*>", page):
        if f'name="{name}"' in tag and marker in tag:
            found = re.search(r'value="([^"]*)"', tag)
            return html.unescape(found.group(1)) if found else ""
    raise SystemExit(f"no input {name!r} on the page")


def create_admin(database_url: str, checkout: Path) -> None:
    """The public command, run on the captured app's own checkout."""
    env = os.environ | {"DATABASE_URL": database_url, "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "app.admin", "create-admin", ADMIN, "--password-stdin"]
    subprocess.run(command, input=PASSWORD + "\n", text=True, env=env, cwd=checkout, check=True, capture_output=True)


def capture(out: Path) -> int:
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out} is not empty: capture into a new directory, so that no page of another run stays")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        database_url = f"sqlite:///{tmp}/pages.db"
        # Set before the app reads its settings: a development app on this database, the cheapest
        # password hash, and no host, proxy or public address from the environment.
        for name in ("PUBLIC_URL", "ALLOWED_HOSTS", "TRUSTED_PROXIES"):
            os.environ.pop(name, None)
        os.environ |= {
            "DATABASE_URL": database_url,
            "ENVIRONMENT": "development",
            "SECRET_KEY": "page-identity-secret-key-of-32-bytes-or-more",
            "PASSWORD_HASH_TIME_COST": "1",
            "PASSWORD_HASH_MEMORY_KIB": "8",
            "PASSWORD_HASH_PARALLELISM": "1",
        }
        from fastapi.testclient import TestClient

        from app import main

        checkout = Path(main.__file__).resolve().parents[1]
        print(f"capturing the app of {checkout}", file=sys.stderr)
        # A server error is captured as the page it answers, not raised: compare then shows where.
        app = main.create_app(database_url)
        with TestClient(app, headers=BROWSER, raise_server_exceptions=False) as client:
            pages = Capture(client, out)
            capture_public(pages)
            create_admin(database_url, checkout)
            capture_admin(pages)
            for path in sorted(pages.static):
                pages.get(f"static.{path.rpartition('/')[2]}", path)
        (out / "index.txt").write_text("\n".join(pages.index) + "\n")
    print(f"{len(pages.index)} pages captured in {out}")
    return 0


def capture_public(pages: Capture) -> None:
    for name, params in CALCULATOR.items():
        pages.page_and_fragment(f"calculator.{name}", f"/?{query(params)}")
    for name, hours in (("hours", 200), ("hours", 2400), ("eur", 100), ("committed_term", 1000), ("owned_server", 500)):
        # The slider's moves: the inputs just quoted but their GPU-hours, answered from that quote's memo.
        moved = query(CALCULATOR[name] | {"gpu_hours": hours})
        pages.get(f"calculator.{name}.moved_{hours}.fragment", f"/?{moved}", fragment=True)
    upload = {"csrf_token": form_value(pages.client.get("/").text, "csrf_token"), "text": MONTH,
              "inputs": query(CALCULATOR["hours"])}  # fmt: skip
    pages.write("calculator.split_uploaded", pages.client.post("/demand", data=upload))

    pages.get("history.index", "/history")
    pages.get("history.H100", "/history/H100")
    pages.get("history.H100.aws", "/history/H100?provider=aws&tenancy=virtualized&billing=on_demand")
    pages.get("history.H100", "/history/H100.csv")
    pages.get("history.unknown_gpu", "/history/NoSuchGPU")

    pages.page_and_fragment("offers.default", "/offers")
    filtered = "gpu=H100&gpu=H200&tenancy=bare_metal&billing=on_demand&sort=per_month&dir=desc&cols=gpus&cols=region"
    pages.page_and_fragment("offers.filtered", f"/offers?{filtered}")
    workload = quote(query(CALCULATOR["hours"]))
    pages.page_and_fragment("offers.workload", f"/offers?gpu=H100&workload={workload}&page=2")
    pages.page_and_fragment("offers.nothing", "/offers?gpu=H100&provider=no-such-provider")
    pages.get("offers.filtered", f"/offers.csv?{filtered}")
    pages.get("offers.bad", "/offers?sort=nonsense&page=-1")

    for name in ("hours", "eur", "serve", "train", "any_gpu", "owned_server", "split_weekly", "bad_hours"):
        pages.get(f"api.quote.{name}", f"/api/quote?{query(CALCULATOR[name])}")
    pages.get("api.quote.providers", f"/api/quote?{query(CALCULATOR['hours'])}&providers=total&providers_dir=desc")
    split = {"gpu": "H100", "hourly": MONTH.split("\n", 1)[1], "split_base": "monthly"}
    pages.write("api.split", pages.client.post("/api/split", json=split))
    pages.write("api.split.refused", pages.client.post("/api/split", json=split | {"job": "train"}))
    pages.get("api.history", "/api/history?gpu=H100&provider=aws")
    pages.get("api.size", "/api/size?preset=llama-3.1-70b&context=8192")
    pages.get("api.offers", "/api/offers?gpu=H100")
    pages.get("api.offers", "/api/offers.csv?gpu=A100")
    pages.get("api.providers", "/api/providers")
    pages.get("api.throughput", "/api/throughput")
    pages.get("api.openapi", "/openapi.json")

    first = pages.scenario(CALCULATOR["hours"], "Eight H100s", "a month of fine-tuning")
    second = pages.scenario(CALCULATOR["owned_server"], "Own or rent", "")
    pages.get("scenario.page", f"/s/{first}")
    pages.get("scenario.owned.page", f"/s/{second}")
    pages.get("scenario.versions", f"/s/{first}/versions")
    pages.get("scenario", f"/s/{first}.json")
    pages.get("scenario", f"/s/{first}.csv")
    pages.get("scenario.missing", "/s/no-such-scenario")
    pages.get("compare", f"/compare?s={first},{second}")
    pages.get("compare.one", f"/compare?s={first}")

    pages.get("docs", "/docs")
    pages.get("not_found", "/no/such/page")
    pages.write("not_found", pages.client.get("/no/such/page", headers={"Accept": "application/json"}))


def capture_admin(pages: Capture) -> None:
    pages.get("admin.signed_out", "/admin/offers")
    login = pages.client.get("/admin/login").text
    form = {"csrf_token": form_value(login, "csrf_token"), "username": ADMIN, "password": PASSWORD}
    signed_in = pages.client.post("/admin/login", data=form, follow_redirects=False)
    if signed_in.status_code != 303:
        raise SystemExit(f"signing in answered {signed_in.status_code}")
    for name, path in (
        ("stale", "/admin"),
        ("offers", "/admin/offers"),
        ("offers.filtered", "/admin/offers?provider=aws&gpu=H100"),
        ("offer_history", "/admin/history?key=aws:p5.4xlarge:H100:us-east-1:on_demand"),
        ("new_offer", "/admin/new-offer"),
        ("providers", "/admin/providers"),
        ("gpus", "/admin/gpus"),
        ("rates", "/admin/rates"),
        ("presets", "/admin/presets"),
        ("throughput", "/admin/throughput"),
        ("servers", "/admin/servers"),
        ("import", "/admin/import"),
        ("audit", "/admin/audit"),
    ):
        pages.get(f"admin.{name}", path)


def comparable(name: str, text: str) -> list[str]:
    """The text without its whitespace differences: HTML a tag a line, so that a diff shows where; JSON
    and CSV by their own lines."""
    if name.endswith(".html"):
        text = re.sub(r">\s+<", "><", re.sub(r"\s+", " ", text)).strip()
        return text.replace("><", ">\n<").splitlines()
    return [line for line in (" ".join(line.split()) for line in text.splitlines()) if line]


def compare(before: Path, after: Path) -> int:
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    differing = 0
    for name in names:
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            print(f"{name}: missing from {before if not a.exists() else after}")
            differing += 1
            continue
        old, new = comparable(name, a.read_text()), comparable(name, b.read_text())
        if old == new:
            print(f"{name}: same")
            continue
        differing += 1
        diff = [line[:LINE_CHARS] for line in difflib.unified_diff(old, new, str(a), str(b), n=1, lineterm="")]
        print(f"{name}: differs")
        print("\n".join(diff[:DIFF_LINES]))
        if len(diff) > DIFF_LINES:
            print(f"... {len(diff) - DIFF_LINES} more lines")
    print(f"{len(names) - differing} of {len(names)} pages the same, {differing} differ or are missing")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("capture", help="capture every page into DIR").add_argument("dir", type=Path)
    both = commands.add_parser("compare", help="compare two captures, ignoring whitespace")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    return capture(args.dir) if args.command == "capture" else compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())

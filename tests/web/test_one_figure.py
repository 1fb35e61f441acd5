"""One figure, computed once, for both outputs: every money figure a page shows is the figure its JSON
gives for the same inputs, on the shipped catalog. Each page is read by its cells' labels and its
sentences' words (`shown`), its JSON by the same names (`given`); a name the page shows must be in the
JSON with the same figure, to the cent (a rate to 1/100 of a cent, as both round it).

A price history's prices are given whole by the JSON (as published, to 8 places) and shown by the
page to the cent, to three significant figures below 1 (`price_shown`): the JSON's is rounded so."""

import re
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

import pytest

from app.catalog.wording import option_label
from app.costing.history import PriceBasis
from app.costing.money import price_shown
from app.costing.terms import Billing, Tenancy
from app.web.history.view import BASES
from tests.factories import make_offer, make_provider
from tests.web.helpers import soup

Figures = dict[str, Decimal | None]

WEEK = "\n".join(" ".join(["2"] * 8 + ["6"] * 10 + ["2"] * 6) for _ in range(6)) + "\n" + " ".join(["1"] * 24)
SPLITS = {
    "weekly, committed base, 12 months": {"gpu": "H100", "demand": "weekly", "weekly": WEEK,
                                          "split_base": "committed", "split_burst": "on_demand", "months": 12},
    "simple, in euros": {"gpu": "H100", "demand": "simple", "base_gpus": 4, "split_peak": 16, "peak_hours": 120,
                         "currency": "EUR"},
    "serving": {"demand": "serving", "preset": "llama-3.1-8b", "gpu": "H100", "output_tokens_m": 3000,
                "daily": " ".join(["1"] * 8 + ["3"] * 10 + ["2"] * 6), "input_length": 467, "output_length": 256,
                "latency": "interactive"},
}  # fmt: skip
"""Each split's inputs, for the page's query and `POST /api/split`'s body alike."""
SERVE = {"job": "serve", "preset": "llama-3.1-70b", "input_length": 467, "output_length": 256, "latency": "interactive"}
QUOTES = {
    "GPU-hours, every provider's bill": {"gpu": "H100", "gpu_hours": 1200, "peak_gpus": 8, "checkpoints_out": 4,
                                         "egress_gb": 500, "stored_gb": 2000, "providers": "total"},
    "in euros over 12 months, by egress": {"gpu": "H100", "gpu_hours": 800, "currency": "EUR", "months": 12,
                                           "checkpoints_out": 4, "providers": "egress", "providers_dir": "desc"},
    "serving on H100": SERVE | {"gpu": "H100", "hours_up": 500},
    "serving on any GPU": SERVE | {"gpu": "any"},
    "training on H100": {"job": "train", "preset": "llama-3.1-8b", "train_tokens_b": 1, "gpu": "H100"},
    "training on any GPU": {"job": "train", "preset": "llama-3.1-8b", "train_tokens_b": 1, "gpu": "any"},
    "a server owned, 36 months": {"gpu": "H100", "gpu_hours": 3000, "peak_gpus": 8, "months": 36,
                                  "own_server": "dgx-h100/semianalysis-2023-05", "own_capital_pct": 8},
}  # fmt: skip
MONEY = r"−?[$€][\d,]+(?:\.\d+)?"


def _figure(text: str) -> Decimal | None:
    """The first amount in a text ($1,234.56, −€3.50, $0.1234); None where it shows none ("not published", "—")."""
    found = re.search(MONEY, text)
    return None if found is None else Decimal(re.sub(r"[$€,]", "", found.group()).replace("−", "-"))


def _given(value: float | None) -> Decimal | None:
    return None if value is None else Decimal(repr(value))


def _lead(cell: Any) -> str:
    """A cell's text before its first line break: its figure, without the notes under it."""
    text = []
    for part in cell.contents:
        if getattr(part, "name", None) == "br":
            break
        text.append(part if isinstance(part, str) else part.get_text())
    return " ".join("".join(text).split())


def _words(tag: Any) -> str:
    return " ".join(tag.get_text().split())


def _cells(row: Any) -> dict[str, Decimal | None]:
    return {td["data-label"]: _figure(_lead(td)) for td in row.select("td[data-label]")}


def _cell_figures(name: str, row: Any, wanted: dict[str, str]) -> Figures:
    """The row's figures under `wanted`'s names, by the label of the cell each is in."""
    cells = _cells(row)
    return {f"{name}.{field}": cells[label] for label, field in wanted.items() if label in cells}


ROW = {"Compute": "compute", "Egress": "egress", "Storage": "storage", "Total / month": "total",
       "Per GPU-hour of work": "per_gpu_hour", "Per million output tokens": "per_output",
       "The run": "per_output"}  # fmt: skip
"""An option's cells, and the provider table's, by what each holds."""


def quote_shown(page: Any) -> Figures:
    """Every money figure of the calculator's results: the options, each provider's bill, every GPU model's
    option and bar for a job, the server owned, the split."""
    shown: Figures = {}
    for row in page.select("tr[data-option]"):
        name = f"options[{row['data-option']}]"
        over = {td["data-label"]: "horizon" for td in row.select("td[data-label^='Over ']")}
        owned = {"Egress", "Storage"} if row["data-option"] == "owned-purchased" else set()  # "in operations"
        shown |= _cell_figures(name, row, {k: v for k, v in (ROW | over).items() if k not in owned})
    for i, row in enumerate(page.select("#provider-bills table.providers tbody tr")):
        shown |= _cell_figures(f"providers[{i}]", row, ROW)
    for i, row in enumerate(page.select("table.any-gpu tbody tr")):
        shown |= _cell_figures(f"any_gpu[{i}]", row, ROW)
    first_frame = page.select_one("figure.job-bars svg")
    for bar in first_frame.select("g.bar") if first_frame else ():
        shown[f"bars[{_words(bar.select_one('.bar-label'))}]"] = _figure(_words(bar.select_one(".bar-value")))
    return shown | _owned_shown(page) | _split_shown(page)


def _owned_shown(page: Any) -> Figures:
    section = page.select_one("section#owning")
    if section is None:
        return {}
    said = _words(section.p)
    parts = {"total": rf"({MONEY}) a month", "capex": rf"capex ({MONEY})", "energy": rf"power ({MONEY})",
             "colocation": rf"colocation ({MONEY})", "operations": rf"operations ({MONEY})",
             "full_use": rf"they would cost ({MONEY}) per GPU-hour"}  # fmt: skip
    shown = {f"owned.{name}": _figure(found.group(1)) for name, at in parts.items() if (found := re.search(at, said))}
    left = section.select_one("p.left")
    if left is not None:
        shown["owned.left"] = _figure(_words(left))
    rental = section.select("span.bar-total")
    if rental:
        shown["owned.rental"] = _figure(_words(rental[-1]))
    return shown


WAY = {"The split": "best", "All burst": "all_burst", "All dedicated": "all_reserved"}
WAY_CELLS = {"Base": "base", "Burst": "burst", "Egress and storage": "data", "A month": "total"}


def _split_shown(page: Any) -> Figures:
    headline = page.select_one("p.split-answer")
    if headline is None:
        return {}
    said = _words(headline)
    shown: Figures = {
        name: _figure(found.group(1)) if (found := re.search(at, said)) else None
        for name, at in {
            "best.total": rf"({MONEY}) a month",
            "best.per_million": rf"\(({MONEY}) per million output tokens\)",
            "all_burst.saves_a_month": rf"({MONEY})(?: a month)? less than bursting all of it",
            "all_reserved.saves_a_month": rf"({MONEY}) less than dedicating the peak",
        }.items()
    }
    horizon = re.search(rf"\(({MONEY}) over \d+ months", said)
    if horizon:
        shown["best.horizon"] = _figure(horizon.group(1))
    for row in page.select("table.split-ways tbody tr"):
        way = WAY[_words(row.th)]
        texts = {td["data-label"]: _words(td) for td in row.select("td[data-label]")}
        for label, text in texts.items():
            field = "horizon" if label.startswith("Over ") else WAY_CELLS[label]
            shown[f"{way}.{field}"] = Decimal(0) if text == "none" else _figure(text)
    return shown


def _option_given(name: str, o: dict[str, Any], run: bool) -> Figures:
    per_output = o["horizon_total"] if run else o.get("per_million_output_tokens")
    return {
        f"{name}.{field}": _given(value)
        for field, value in {"compute": o["compute"], "egress": o["egress"], "storage": o["storage"],
                             "total": o["total"], "horizon": o["horizon_total"],
                             "per_gpu_hour": o["effective_per_gpu_hour"], "per_output": per_output}.items()
    }  # fmt: skip


def quote_given(body: dict[str, Any]) -> Figures:
    """The same figures of the JSON answer, by the same names."""
    run = body["job"] is not None and body["job"]["run_gpu_hours"] is not None
    given: Figures = {}
    for o in body["options"]:
        given |= _option_given(f"options[{o['option'].replace('/', '-')}]", o, run)
    for i, o in enumerate(body["providers"] or ()):
        given |= _option_given(f"providers[{i}]", o, run)
    for i, g in enumerate(body["any_gpu"]):
        given |= _option_given(f"any_gpu[{i}]", g["option"], run)
        bar = f"bars[{g['gpus']} x {g['gpu']}]"
        given.setdefault(bar, _given(g["option"]["horizon_total"] if run else g["option"]["per_million_output_tokens"]))
    return given | _owned_given(body) | _split_given(body["split"])


def _owned_given(body: dict[str, Any]) -> Figures:
    owned = body["owned"]
    if owned is None:
        return {}
    option = next(o for o in body["options"] if o["option"] == "owned/purchased")
    rental = next(o for o in body["options"] if o["option"] != "owned/purchased" and o["complete"])
    return {
        "owned.total": _given(option["total"]),
        "owned.capex": _given(owned["capex"]),
        "owned.energy": _given(owned["energy"]),
        "owned.colocation": _given(owned["colocation"]),
        "owned.operations": _given(owned["operations"]),
        "owned.full_use": _given(owned["full_use_per_gpu_hour"]),
        "owned.left": _given(owned["not_yet_written_off"]),
        "owned.rental": _given(rental["total"]),
    }


def _split_given(split: dict[str, Any] | None) -> Figures:
    if split is None or split["best"] is None:
        return {}
    given: Figures = {"best.per_million": _given(split["best"]["per_million_output_tokens"])}
    for way in ("best", "all_burst", "all_reserved"):
        figures = split[way]
        if figures is None:
            continue
        given |= {f"{way}.{field}": _given(figures[field]) for field in ("base", "burst", "data", "total")}
        given[f"{way}.horizon"] = _given(figures["horizon_total"])
        if way != "best":
            saves = _given(figures["split_saves_a_month"])
            given[f"{way}.saves_a_month"] = saves if saves is not None and saves > 0 else None  # shown from a cent
    return given


def same(shown: Figures, given: Figures) -> None:
    """Every figure shown is given, and the same."""
    assert shown, "the page shows figures"
    assert {name: given.get(name, "not in the JSON") for name in shown} == shown


def page_and_json(client, params: dict[str, Any], split: bool = False) -> tuple[Figures, Figures]:
    page = soup(client.get(f"/?{urlencode(params, doseq=True)}"))
    if split:
        answer = client.post("/api/split", json={k: v for k, v in params.items() if k != "job"})
    else:
        answer = client.get(f"/api/quote?{urlencode(params, doseq=True)}")
    assert answer.status_code == 200, answer.text
    return quote_shown(page), quote_given(answer.json())


@pytest.mark.parametrize("name", QUOTES)
def test_the_calculators_figures_are_the_quotes(shipped_client, name):
    shown, given = page_and_json(shipped_client, QUOTES[name])
    same(shown, given)
    params = QUOTES[name]
    if "providers" in params:
        assert any(k.startswith("providers[") for k in shown), "the provider table is shown"
    if params.get("gpu") == "any" and "job" in params:
        assert any(k.startswith("bars[") for k in shown) and any(k.startswith("any_gpu[") for k in shown)
    if "job" in params:
        assert any(k.endswith(".per_output") and v is not None for k, v in shown.items())
    if "own_server" in params:
        assert {"owned.capex", "owned.left", "owned.rental"} <= shown.keys()


@pytest.mark.parametrize("name", SPLITS)
def test_the_splits_figures_are_those_the_split_endpoint_gives(shipped_client, name):
    shown, given = page_and_json(shipped_client, {"job": "split"} | SPLITS[name], split=True)
    same(shown, given)
    assert {"best.total", "all_burst.total", "all_reserved.total"} <= shown.keys()
    assert (shown["best.per_million"] is not None) == (name == "serving")


def test_a_figure_changed_on_either_side_is_caught(shipped_client):
    """The comparison can fail: one cent more on the JSON's side, or a figure the JSON leaves out."""
    params = {"job": "split"} | SPLITS["weekly, committed base, 12 months"]
    shown, given = page_and_json(shipped_client, params, split=True)
    same(shown, given)
    for name in ("all_burst.saves_a_month", "options[virtualized-on_demand].total", "best.horizon"):
        changed = given | {name: (given[name] or Decimal(0)) + Decimal("0.01")}
        with pytest.raises(AssertionError):
            same(shown, changed)
    with pytest.raises(AssertionError):
        same(shown, {k: v for k, v in given.items() if k != "all_reserved.data"})


def test_a_base_of_the_peaks_units_on_another_offer_still_says_what_it_saves(client, session):
    """The one figure the page and the JSON worked out by two rules: what the split saves against
    dedicating the peak, where the split's base has as many units as the peak's, on another offer. The
    page said nothing (it took the same unit count for the same way); by DOMAIN.md ways are compared on
    what the horizon costs, so it says the JSON's figure.

    15 GPUs all month, 16 for 10 hours; an 8-GPU bare-metal node at 16,000 a month (no tax), an 8-GPU
    virtualized node committed at 12,000 a month (5 % tax: 7.6 GPUs of work each), on demand at 4.00 a
    GPU-hour (5 % tax). Dedicating the peak: 2 bare-metal nodes, 32,000. The split: 2 committed nodes
    carry 15.2 GPUs, the 0.8 above them for 10 hours burst as 0.8 / 0.95 x 10 = 8.42 GPU-hours,
    24,000 + 33.68 = 24,033.68: 7,966.32 less, at 2 nodes of 8 GPUs like the peak's."""
    metal = make_provider(session, "metal", "DE", tiers=[(0, None, "0")])
    cloud = make_provider(session, "cloud", tiers=[(0, None, "0")])
    make_offer(session, metal, "16000", "bare_metal", "monthly", "month", gpus_per_unit=8)
    make_offer(session, cloud, "12000", "virtualized", "committed", "month", gpus_per_unit=8)
    make_offer(session, cloud, "4.00")
    params = {"job": "split", "gpu": "H100", "demand": "simple", "base_gpus": 15, "split_peak": 16,
              "peak_hours": 10, "virt_tax": 5, "virt_tax_bare_metal": 0, "checkpoints_out": 0}  # fmt: skip
    shown, given = page_and_json(client, params, split=True)
    same(shown, given)
    assert (shown["best.total"], shown["all_reserved.total"]) == (Decimal("24033.68"), Decimal("32000.00"))
    assert shown["all_reserved.saves_a_month"] == Decimal("7966.32")


def _series_title(s: dict[str, Any]) -> str:
    option = option_label((Tenancy(s["tenancy"]), Billing(s["billing"])))
    currency = f"in {s['currency']}" if s["currency"] else "currency not stated"
    return f"{option} {BASES[PriceBasis(s['price_basis'])]}, {currency}"


def _price(value: float | None, currency: str) -> str:
    """A price as the page rounds it (`price_shown`), with its sign."""
    if value is None:
        return "—"
    text = f"{price_shown(Decimal(repr(value))):,}"
    return f"{'$' if currency == 'USD' else '€'}{text}" if currency else f"{text} (currency not stated)"


def history_shown(page: Any) -> dict[str, list[tuple[str, ...]]]:
    """Each series' steps as the page's table shows them, newest first, and its undated prices."""
    shown = {}
    for section in page.select("section.history-series"):
        title = _words(section.h2)
        steps = [
            (_words(tr.th), tr.select_one("td[data-label='The cheapest']").find(string=True).strip(),
             _words(tr.select_one("td[data-label='The median']")),
             _lead(tr.select_one("td[data-label='Providers']")))
            for tr in section.select("table.history-steps tbody tr")
        ]  # fmt: skip
        undated = [_words(td) for td in section.select("details.history-undated td[data-label='Per GPU-hour']")]
        shown[title] = steps + [("undated", price) for price in undated]
    return shown


def history_given(body: dict[str, Any]) -> dict[str, list[tuple[str, ...]]]:
    given = {}
    for s in body["series"]:
        currency = s["currency"]
        steps = [
            (t["date"], _price(t["cheapest"], currency), _price(t["median"], currency), str(t["providers"]))
            for t in reversed(s["steps"])
        ]
        undated = sorted(
            (p for p in body["points"] if p["date"] is None and _series_title(_series_of(p)) == _series_title(s)),
            key=lambda p: (Decimal(repr(p["per_gpu_hour"])), p["provider_name"], p["provider"], p["product"],
                           p["region"]),
        )  # fmt: skip
        given[_series_title(s)] = steps + [("undated", _price(p["per_gpu_hour"], currency)) for p in undated]
    return given


def _series_of(p: dict[str, Any]) -> dict[str, Any]:
    return {k: p[k] for k in ("tenancy", "billing", "price_basis", "currency")}


@pytest.mark.parametrize("query", ["", "tenancy=virtualized", "billing=spot&billing=on_demand"])
def test_the_history_pages_steps_are_the_apis(shipped_client, query):
    page = soup(shipped_client.get(f"/history/H100?{query}"))
    body = shipped_client.get(f"/api/history?gpu=H100&{query}").json()
    shown, given = history_shown(page), history_given(body)
    assert shown and any(shown.values())
    assert shown == given
    changed = dict(given)
    title = next(t for t, rows in given.items() if rows)
    changed[title] = [("changed", *changed[title][0][1:]), *changed[title][1:]]
    assert shown != changed, "a changed step is caught"


AWS_ON_DEMAND = "provider=aws&tenancy=virtualized&billing=on_demand"


def test_a_providers_own_prices_and_line_on_the_page_are_the_apis(shipped_client):
    """Asked for one provider, the page lists its dated prices in each series and states its line's
    newest price; the API, asked the same, gives those points and the series of them alone."""
    page = soup(shipped_client.get(f"/history/H100?{AWS_ON_DEMAND}"))
    body = shipped_client.get(f"/api/history?gpu=H100&{AWS_ON_DEMAND}").json()
    shown = sorted(
        (_words(section.h2), _words(tr.th), _words(tr.select_one("td[data-label='Product']")),
         _words(tr.select_one("td[data-label='Per GPU-hour']")))
        for section in page.select("section.history-series")
        for tr in section.select("details.history-points tbody tr")
    )  # fmt: skip
    given = sorted(
        (_series_title(_series_of(p)), p["date"], f"{p['provider_name']} {p['product']} {p['region']}",
         _price(p["per_gpu_hour"], p["currency"]))
        for p in body["points"]
        if p["date"] is not None
    )  # fmt: skip
    assert shown and shown == given
    newest = re.search(r"Amazon Web Services: (\S+) since (\d{4}-\d\d-\d\d)", _words(page.select_one("p.headline")))
    main = next(s for s in body["series"] if _series_title(s) == _words(page.select_one("section.history-series h2")))
    last = main["steps"][-1]
    assert newest is not None and newest.groups() == (_price(last["cheapest"], main["currency"]), last["date"])

"""A saved scenario's Atom feed: an entry for each price list that moved its answer, so that a feed
reader tells the buyer when their answer moved, in words and with a link to the price lists page."""

from __future__ import annotations

from datetime import UTC, datetime
from xml.etree import ElementTree as ET

from app.catalog.wording import option_label
from app.scenarios.alerts import Moved
from app.scenarios.tables import Scenario
from app.scenarios.versions import AtVersion
from app.web.templating import amount, day, month_said

ATOM = "http://www.w3.org/2005/Atom"
ET.register_namespace("", ATOM)


def _stamp(moment: datetime) -> str:
    """RFC 3339 in UTC, as Atom's dates are: a time stored without its zone is UTC."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def who_said(row: AtVersion) -> str:
    """Who answers, in words: "Virtualized, on demand at Lambda", the split's two offers, or why none."""
    if row.problem:
        return f"no option (this price list cannot quote the inputs: {row.problem})"
    if row.split:
        parts = [
            f"{role} {option_label(p.option)} at {p.offer.provider}"
            for role, p in (("base on", row.split.base), ("burst on", row.split.burst))
            if p is not None
        ]
        return f"a base of {row.split.split.base_gpus} GPUs with the rest burst, " + " and ".join(parts)
    if row.best is None:
        return "no offer"
    return f"{option_label(row.best.option)} at {row.best.offer.provider}"


def _month(row: AtVersion) -> str:
    if row.month is None:
        return ""
    said = month_said(row.best) if row.best and not row.split else "a month"
    return f", {amount(row.month, row.currency)} {said}"


def moved_said(move: Moved) -> str:
    """ "Cheapest now Virtualized, on demand at Lambda, $1,234.56 a month, was $1,300.00 at Nebius." """
    now, was = move.now, move.was
    same = who_said(now) == who_said(was)
    was_month = f"{amount(was.month, was.currency)}" if was.month is not None else ""
    if same:
        return f"Cheapest still {who_said(now)}{_month(now)}, was {was_month}."
    was_who = f"{was_month} with {who_said(was)}" if was_month else who_said(was)
    return f"Cheapest now {who_said(now)}{_month(now)}, was {was_who}."


def _text(parent: ET.Element, tag: str, text: str, **attrib: str) -> ET.Element:
    child = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attrib)
    child.text = text
    return child


def atom_feed(scenario: Scenario, moves: list[Moved], scenario_url: str) -> bytes:
    """The feed, its entries newest first; its time that of the newest entry, or the save's without one."""
    name = scenario.name or "Saved scenario"
    versions_url = f"{scenario_url}/versions"
    feed = ET.Element(f"{{{ATOM}}}feed")
    _text(feed, "id", scenario_url)
    _text(feed, "title", f"{name}: when its answer moves")
    _text(
        feed,
        "subtitle",
        "A price list that changes the cheapest option or its provider, or its month by more than 1 %.",
    )
    _text(feed, "updated", _stamp(moves[0].now.listed if moves else scenario.created_at))
    _text(ET.SubElement(feed, f"{{{ATOM}}}author"), "name", "GPU cost calculator")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=f"{scenario_url}/feed.xml")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=scenario_url)
    for move in moves:
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        row_id = f"version-{move.now.version}"
        _text(entry, "id", f"{versions_url}#{row_id}")
        _text(entry, "title", f"{name} at the price list recorded {day(move.now.listed)}: {who_said(move.now)}")
        _text(entry, "updated", _stamp(move.now.listed))
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=f"{versions_url}#{row_id}")
        _text(entry, "summary", moved_said(move), type="text")
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True)

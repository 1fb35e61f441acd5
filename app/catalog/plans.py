"""What an import or a refresh would do to the catalog: offers sorted into new, changed and
unchanged against one version, with every problem found on the way."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlmodel import Session, select

from app.catalog.exports import current_offers
from app.catalog.rows import VERSIONED_FIELDS, OfferRow
from app.catalog.tables import GpuModel, Provider


@dataclass
class ImportPlan:
    """What an import would do: new offers, changed offers (current row id, new row), the rest."""

    add: list[OfferRow] = field(default_factory=list)
    change: list[tuple[int, OfferRow]] = field(default_factory=list)
    unchanged: int = 0
    problems: list[tuple[int | str, str]] = field(default_factory=list)
    rows: int = 0
    left_out: list[str] = field(default_factory=list)
    """What a refresh read but does not bring in, and why (a GPU the catalog does not know, ...)."""

    @property
    def applicable(self) -> bool:
        """Something to apply, and no malformed row that would make applying it half a change."""
        return not self.problems and bool(self.add or self.change)

    def dump(self) -> str:
        return json.dumps(
            {"add": [r.model_dump(mode="json") for r in self.add],
             "change": [[i, r.model_dump(mode="json")] for i, r in self.change]}
        )  # fmt: skip

    @classmethod
    def load(cls, text: str) -> ImportPlan:
        data = json.loads(text)
        return cls(
            add=[OfferRow.model_validate(r) for r in data["add"]],
            change=[(i, OfferRow.model_validate(r)) for i, r in data["change"]],
        )


class OfferPlanner:
    """Sorts offers read from a file or a price source into new, changed and unchanged against the
    catalog at one version; an unknown GPU or provider, or an offer read twice, is a problem."""

    def __init__(self, session: Session, version: int, plan: ImportPlan) -> None:
        self.plan = plan
        self.known_gpus = set(session.exec(select(GpuModel.name)).all())
        self.known_providers = set(session.exec(select(Provider.slug)).all())
        self.current = {row.key: (offer.id, row) for offer, row in current_offers(session, version) if offer.id}
        self.countries = {(r.provider, r.region): r.region_country for _, r in self.current.values()}
        self.seen: set[str] = set()

    def add(self, where: int | str, row: OfferRow) -> None:
        plan = self.plan
        if row.gpu not in self.known_gpus:
            plan.problems.append((where, f"unknown GPU model {row.gpu!r}"))
        elif row.provider not in self.known_providers:
            plan.problems.append((where, f"unknown provider {row.provider!r}"))
        elif row.key in self.seen:
            plan.problems.append((where, f"offer {row.key} appears twice"))
        else:
            self.seen.add(row.key)
            if row.region_country is None:
                row = row.model_copy(update={"region_country": self.countries.get((row.provider, row.region))})
            now = self.current.get(row.key)
            if now is None:
                plan.add.append(row)
            elif any(getattr(now[1], f) != getattr(row, f) for f in VERSIONED_FIELDS):
                plan.change.append((now[0], row))
            else:
                plan.unchanged += 1

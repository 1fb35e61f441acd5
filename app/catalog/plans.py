"""What an import or a refresh would do to the catalog: offers sorted into new, changed and
unchanged against one version, with every problem found on the way; and the most current offers
one catalog version may hold (CATALOG_OFFERS_MAX), which every addition is checked against here."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlmodel import Session, col, func, select

from app.catalog.exports import current_offers
from app.catalog.rows import VERSIONED_FIELDS, OfferRow
from app.catalog.tables import GpuModel, OfferVersion, Provider
from app.platform.settings import settings

FEWER_OR_RETIRE = "import fewer rows, or retire offers first"


class CatalogFull(ValueError):
    """An addition that would bring the catalog past CATALOG_OFFERS_MAX current offers."""


def catalog_full(what: str, remedy: str, read_up_to: str = "") -> CatalogFull:
    """The refusal of `what` (this file, this offer): the bound, where reading stopped, what to do."""
    read = f"; it was read up to {read_up_to}" if read_up_to else ""
    return CatalogFull(
        f"{what} would bring the catalog past {settings.catalog_offers_max:,} current offers, the most one "
        f"catalog version may hold (CATALOG_OFFERS_MAX){read}: {remedy}"
    )


def has_room(current: int, adding: int) -> bool:
    """Whether a catalog of `current` current offers may take `adding` more. A catalog past the bound
    already (made before it) still loads and quotes; it only takes no more."""
    return not adding or current + adding <= settings.catalog_offers_max


def check_room(current: int, adding: int, what: str, remedy: str) -> None:
    """CatalogFull, saying what to do (`remedy`), if `what` would bring the catalog past the bound."""
    if not has_room(current, adding):
        raise catalog_full(what, remedy)


def current_offer_count(session: Session, key: str | None = None) -> int:
    """The newest version's current (not retired) offers; of one offer's `key`, 1 or 0 (retired)."""
    query = select(func.count()).select_from(OfferVersion).where(col(OfferVersion.valid_to).is_(None))
    return session.exec(query if key is None else query.where(OfferVersion.key == key)).one()


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
    catalog at one version; an unknown GPU or provider, or an offer read twice, is a problem. A new
    offer that would bring the catalog past CATALOG_OFFERS_MAX is one problem more, after which the
    planner is `full`, takes nothing more, and its caller stops reading: a file far past the bound
    costs no more to refuse than one at it. `what` names the file or the source in that message."""

    def __init__(self, session: Session, version: int, plan: ImportPlan, what: str = "this file") -> None:
        self.plan = plan
        self.what = what
        self.full = False
        self.known_gpus = set(session.exec(select(GpuModel.name)).all())
        self.known_providers = set(session.exec(select(Provider.slug)).all())
        self.current = {row.key: (offer.id, row) for offer, row in current_offers(session, version) if offer.id}
        self.countries = {(r.provider, r.region): r.region_country for _, r in self.current.values()}
        self.seen: set[str] = set()

    def add(self, where: int | str, row: OfferRow) -> None:
        plan = self.plan
        if self.full:
            return
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
                self._add_new(where, row)
            elif any(getattr(now[1], f) != getattr(row, f) for f in VERSIONED_FIELDS):
                plan.change.append((now[0], row))
            else:
                plan.unchanged += 1

    def _add_new(self, where: int | str, row: OfferRow) -> None:
        if has_room(len(self.current) + len(self.plan.add), 1):
            self.plan.add.append(row)
            return
        place = f"line {where}" if isinstance(where, int) else where
        self.plan.problems.append((where, str(catalog_full(self.what, FEWER_OR_RETIRE, place))))
        self.full = True

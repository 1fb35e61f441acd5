"""The catalog's terms as a reader says them: country codes as names, source jargon as sentences, options by name."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TypeVar

from app.costing.terms import Billing, Tenancy

T = TypeVar("T")

COUNTRY_NAMES = {
    "AT": "Austria", "AU": "Australia", "BE": "Belgium", "BG": "Bulgaria", "BR": "Brazil", "CA": "Canada",
    "CH": "Switzerland", "CY": "Cyprus", "CZ": "Czechia", "DE": "Germany", "DK": "Denmark", "EE": "Estonia",
    "ES": "Spain", "FI": "Finland", "FR": "France", "GB": "United Kingdom", "GR": "Greece", "HR": "Croatia",
    "HU": "Hungary", "IE": "Ireland", "IL": "Israel", "IN": "India", "IS": "Iceland", "IT": "Italy",
    "JP": "Japan", "KR": "South Korea", "LT": "Lithuania", "LU": "Luxembourg", "LV": "Latvia", "MA": "Morocco",
    "MT": "Malta", "MX": "Mexico", "NL": "Netherlands", "NO": "Norway", "PL": "Poland", "PT": "Portugal",
    "RO": "Romania", "SE": "Sweden", "SG": "Singapore", "SI": "Slovenia", "SK": "Slovakia", "TH": "Thailand",
    "TW": "Taiwan", "US": "United States", "VN": "Vietnam", "ZA": "South Africa",
}  # fmt: skip
"""ISO 3166 codes of the countries data centres and headquarters are in, and the EU's 27."""

NO_COUNTRY = "Country not stated"


def country_name(code: str | None) -> str:
    return NO_COUNTRY if code is None else COUNTRY_NAMES.get(code, code)


def by_country(groups: Mapping[str | None, T]) -> list[tuple[str, T]]:
    """Groups under their countries' names, alphabetically; those with no country stated last."""
    return sorted(
        ((country_name(code), group) for code, group in groups.items()), key=lambda g: (g[0] == NO_COUNTRY, g[0])
    )


SOURCE_TERMS = {
    "third_party_transcription_unverified": "Copied by a third party; not checked against the provider's page.",
    "third_party_transcription_verbatim": "Copied word for word by a third party from the provider's page.",
    "official_docs": "From the provider's own documentation.",
    "'from' price (price_per_hour_from)": "A 'from' price: the lowest the provider advertises.",
}
"""Labels the research files use for where a price came from, as sentences."""

_PROVENANCE = re.compile(
    r"\s*\[via [^\]]*\]|\s*\([^()]*@[0-9a-f]{7,40}\b[^()]*\)|\s*As of as published:[^.]*\.?|[\s;]*(?i:read from)\b.*$",
    re.DOTALL,
)
"""Where the research read a fact: a bracketed [via ...], a parenthesis naming a file at a commit
(`repo:path@da0a5862`), its "As of as published: ..." and its closing "Read from: ..." (repository
paths, commits, copies), the trail, not what a reader is told."""


RESEARCH_WORDS = tuple(
    (re.compile(pattern), plain)
    for pattern, plain in (
        (r"\s*\(stored (?:copy|documentation excerpt)\)", ""),
        (r"\bstored (copy|excerpt)\b", r"copied \1"),
        (r"\ba docs-corpus excerpt\b", "an excerpt of the documentation"),
        (r"\bdocs-corpus excerpt\b", "excerpt of the documentation"),
        (r"\bpages corpus \(copy of ([^()]*)\)", r"a copy of \1"),
        (r"\bpages corpus: ", ""),
        (r"\bpages corpus\b", "a copy of the page"),
        (r"\bnot a verbatim harvest\b", "not copied word for word"),
        (r"\bno verbatim-grounding stamp\b", "not marked as copied word for word"),
        (r"\bverbatim-grounded harvest\b", "copied word for word"),
        (r"\bthird-party verbatim transcription\b", "a third party's word-for-word copy"),
        (r"\bthe stored sources\b|\b(?:the )?stored corpora\b", "the sources checked"),
        (r"\bthe stored page\b", "the copy of the page"),
        (r"\bstored (version|versions)\b", r"\1"),
        (r"\b([Nn])ot found in the research\b", r"\1ot found in the sources checked"),
        (r"\(research date ([^)]*)\)", r"(dated \1)"),
        (r"\bas the research gives it\b", "as its source gives it"),
        (r"\bRead from\b", "Taken from"),
        (r"\bread from\b", "taken from"),
    )
)
"""How the research named its own steps (its stores of pages and documentation, its harvests), as a reader
says where a fact came from: applied to whatever a page or the API shows of a note or a source, never to
the stored rows (shipped data is never edited)."""


def plain_words(text: str) -> str:
    """A note or a source with the research's words for its own steps said plainly."""
    for pattern, plain in RESEARCH_WORDS:
        text = pattern.sub(plain, text)
    return text


_TEST_DATA = re.compile(r"/(?:tests?|testdata|fixtures)/")
"""A path inside another project's tests: a copy that project keeps to test its own code."""


def source_word(source: str, otherwise: str = "source") -> str:
    """What a link to a source says: another project's test data is a third party's copy, not the
    provider's page, and says so."""
    return "a third party's copy" if _TEST_DATA.search(source) else otherwise


NOTES_KEPT = 4096
"""Notes whose plain form is kept, the most recently read (every offer's of a catalog version or two): a
note's plain form depends on its text alone, so none goes stale. Each move of the calculator's slider
reads its options' notes twice (offer and source cells), at tens of microseconds a note."""


@lru_cache(maxsize=NOTES_KEPT)
def plain_note(notes: str) -> tuple[str, str]:
    """A fact's notes as sentences, and the trail of where the research read them (for the source's
    tooltip or its own field, not the reader's eye)."""
    trail = plain_words(" ".join(m.group().strip(" []") for m in _PROVENANCE.finditer(notes)))
    text = plain_words(_PROVENANCE.sub("", notes))
    parts = [SOURCE_TERMS.get(part.strip(), part.strip()) for part in text.split(";") if part.strip()]
    capitals = [part[0].upper() + part[1:] for part in parts]
    sentences = [part if part.endswith(".") else part + "." for part in capitals]
    return " ".join(sentences), trail


TENANCY_LABELS = {
    Tenancy.BARE_METAL: "Bare metal",
    Tenancy.VIRTUALIZED: "Virtualized",
    Tenancy.SERVERLESS: "Serverless",
    Tenancy.OWNED: "Owned servers",
}
BILLING_LABELS = {
    Billing.ON_DEMAND: "on demand",
    Billing.SPOT: "spot",
    Billing.COMMITTED: "committed",
    Billing.MONTHLY: "monthly node",
    Billing.PER_SECOND: "per second",
    Billing.PURCHASED: "bought",
}


def option_label(option: tuple[Tenancy, Billing]) -> str:
    tenancy, billing = option
    if billing is Billing.PURCHASED:
        return TENANCY_LABELS[tenancy]
    return f"{TENANCY_LABELS[tenancy]}, {BILLING_LABELS[billing]}"

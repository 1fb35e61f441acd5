"""Plain provenance (issue 39): a note or a source a buyer reads says where a fact came from in plain
words, never how the research went about it ("docs-corpus excerpt", "Read from: pages corpus")."""

import re

import pytest

from app.catalog.wording import plain_note, plain_words, source_word
from tests.web.helpers import soup

RESEARCH_WORDS = re.compile(
    r"corpus|\bcorpora\b|verbatim.grounded|verbatim.grounding|verbatim harvest|read from|the research\b|research date"
    r"|stored (?:cop|documentation|excerpt|sources|version|page)|\bmemo\b|index id",
    re.IGNORECASE,
)
"""The research's words for its own steps, as the shipped data's notes held them."""


def research_in(texts) -> list[str]:
    """Each research word found, with the text around it, to say where."""
    found = (
        (m, text)
        for text in texts
        for m in RESEARCH_WORDS.finditer(text)  # every one, not the first: a test failure lists them all
    )
    return sorted({text[max(0, m.start() - 60) : m.end() + 40] for m, text in found})


def test_the_research_words_are_said_plainly():
    """Two of the shipped notes: the reader's sentences, and the trail the source link's tooltip shows."""
    fal = "third_party_transcription_verbatim; per GPU-hour [via fal-ai:plans@34743afa; verbatim-grounded harvest]"
    assert plain_note(fal) == (
        "Copied word for word by a third party from the provider's page. Per GPU-hour.",
        "via fal-ai:plans@34743afa; copied word for word",
    )
    amazon = "US; Seattle (Amazon.com, Inc.) Read from: pages corpus (copy of Amazon 10-K FY2019)."
    assert plain_note(amazon) == ("US. Seattle (Amazon.com, Inc.).", "Taken from: a copy of Amazon 10-K FY2019.")
    assert plain_note("Headquarters not found in the research.")[0] == "Headquarters not found in the sources checked."
    assert plain_words("https://example.test/prices.json (stored copy)") == "https://example.test/prices.json"


def test_another_projects_test_data_is_called_a_third_partys_copy():
    fixture = "https://github.com/onticlabs/skypilot-lyceum/blob/d38492c8/tests/fixtures/lyceum_api/pricing.json"
    assert source_word(fixture) == "a third party's copy"
    assert source_word("https://lambda.ai/pricing") == "source"


def test_no_offer_or_server_note_a_page_shows_says_how_the_research_went(shipped):
    """The options table shows an offer's (or an owned server's) notes, and its trail as the source
    link's tooltip, through `plain_note`."""
    catalog = shipped.current()
    notes = [r.row.notes for r in [*catalog.offers, *catalog.unpriced]] + [s.notes for s in catalog.servers.values()]
    assert len(notes) > 500
    assert research_in(part for note in notes for part in plain_note(note)) == []


@pytest.mark.parametrize("path", ["/api/offers", "/api/offers.csv", "/api/providers", "/api/throughput"])
def test_no_note_or_source_the_api_gives_says_how_the_research_went(shipped_client, path):
    response = shipped_client.get(path)
    assert response.status_code == 200
    assert research_in([response.text]) == []


def test_no_price_history_says_how_the_research_went(shipped_client, shipped):
    for gpu in shipped.current().gpus:
        for path in (f"/api/history?gpu={gpu}", f"/history/{gpu}"):
            response = shipped_client.get(path)
            assert response.status_code in (200, 404), path
            assert research_in([response.text]) == [], path


def test_an_offer_copied_from_another_projects_test_data_links_to_a_third_partys_copy(shipped_client):
    page = soup(shipped_client.get("/offers?cols=provider&cols=source&provider=latitude"))
    fixture = "https://github.com/getcomputable/gpu-index/blob/055204ad/tests/fixtures/observatory/latitude/"
    links = page.select(f'td[data-label=Source] a[href^="{fixture}"]')
    assert links and {a.get_text() for a in links} == {"a third party's copy"}


def test_a_price_history_point_from_another_projects_test_data_says_it_is_a_third_partys_copy(shipped_client):
    page = soup(shipped_client.get("/history/H100?provider=lyceum"))
    cells = [td.get_text(" ", strip=True) for td in page.select("td[data-label=Source]")]
    assert cells and all(cell.endswith("(a third party's copy)") for cell in cells)

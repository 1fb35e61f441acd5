"""The page of a server error says only what is true: the request may not have been completed,
and nothing is ever saved in part."""

from fastapi.testclient import TestClient
from sqlmodel import Session, create_engine, select

from app.catalog.tables import CatalogVersion
from app.deps import Database
from app.main import create_app
from tests.web.helpers import html


def test_a_change_that_fails_half_way_saves_nothing_and_the_page_says_no_more(database_url):
    """A route that writes a catalog version and then fails, as a bug in the middle of a change would."""
    app = create_app(database_url)

    def half_way(db: Database) -> None:
        with db() as session:
            session.add(CatalogVersion(note="half of a change"))
            session.flush()
            raise RuntimeError("a bug after the first write")

    app.add_api_route("/half-way", half_way, methods=["POST"])
    with TestClient(app, raise_server_exceptions=False) as client:
        page = client.post("/half-way", headers={"Accept": "text/html"})
        message = html(page).select_one(".problem").get_text()
    assert page.status_code == 500
    assert message == (
        "Something went wrong on our side and the request may not have been completed. "
        "Nothing is ever saved in part; try again in a moment."
    )
    with Session(create_engine(database_url)) as session:
        assert "half of a change" not in session.exec(select(CatalogVersion.note)).all()

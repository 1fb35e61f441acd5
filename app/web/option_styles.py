"""How each option looks wherever it is drawn: its line on a chart, its legend key, its swatch in a table,
its bar. One table gives every option that can exist a colour and a dash pattern, and `static/options.css`
is generated from it (`python -m app.web.option_styles`), so that no option is ever left without a line.

Every colour has at least 3:1 contrast on white (WCAG 2.1, 1.4.11, for graphics); no two options share a
colour or a dash pattern, so that lines are told apart without colour too. The colours run in families by
tenancy: bare metal purples, virtualized blues and greens, serverless oranges and browns, owned red."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from app.costing.owning import OWNED_OPTION
from app.costing.terms import RENTAL_BILLINGS, RENTED, Billing, Tenancy
from app.platform.settings import ROOT

Option = tuple[Tenancy, Billing]

EVERY_OPTION: tuple[Option, ...] = (*product(RENTED, RENTAL_BILLINGS), OWNED_OPTION)
"""What an offer may be (the catalog takes any rented tenancy with any rental billing), and owning."""


@dataclass(frozen=True)
class Look:
    colour: str
    """sRGB as #rrggbb."""
    dashes: tuple[float, ...] = ()
    """An SVG dash array in px, dash then gap; none is a solid line."""
    width: float = 2.4
    """Stroke width in px."""


B, V, S = Tenancy.BARE_METAL, Tenancy.VIRTUALIZED, Tenancy.SERVERLESS
LOOKS: dict[Option, Look] = {
    # The eight options the shipped catalog has, and owning, drawn most apart.
    (B, Billing.MONTHLY): Look("#7b3fa0"),
    (B, Billing.COMMITTED): Look("#360b9c", (14, 5)),
    (B, Billing.ON_DEMAND): Look("#b0197a", (7, 4)),
    (V, Billing.MONTHLY): Look("#7a944f", (28, 4)),
    (V, Billing.COMMITTED): Look("#1f7a4d", (12, 3, 2, 3)),
    (V, Billing.ON_DEMAND): Look("#0b5cad", (2, 3)),
    (V, Billing.SPOT): Look("#1096c2", (10, 3, 2, 3, 2, 3)),
    (S, Billing.PER_SECOND): Look("#b86a00", (3, 3), width=3.4),
    OWNED_OPTION: Look("#b3261e", (16, 3, 2, 3, 2, 3), width=3.4),
    # Options no shipped offer has, but an offer added by hand may.
    (B, Billing.SPOT): Look("#e843a6", (2, 7)),
    (B, Billing.PER_SECOND): Look("#817cf8", (4, 8)),
    (V, Billing.PER_SECOND): Look("#084465", (6, 2, 6, 8)),
    (S, Billing.ON_DEMAND): Look("#f84331", (6, 3, 2, 3), width=3.4),
    (S, Billing.SPOT): Look("#594000", (2, 2, 2, 7), width=3.4),
    (S, Billing.COMMITTED): Look("#6e0237", (16, 8), width=3.4),
    (S, Billing.MONTHLY): Look("#a8779c", (20, 4, 2, 4), width=3.4),
}


def option_class(option: Option) -> str:
    """The class that gives an element its option's colour: `s-bare_metal-monthly`."""
    tenancy, billing = option
    return f"s-{tenancy}-{billing}"


def stylesheet() -> str:
    """Each option's colour (`stroke` for lines, `color` for keys, swatches and bars, which paint in
    `currentColor`) and, where lines are options (`.by-option`), its dash pattern and width; where lines
    are layers instead (GPU models, compared scenarios), app.css dashes them by layer."""
    rules = [
        "/* Generated from app/web/option_styles.py by `python -m app.web.option_styles`: edit the table there. */"
    ]
    for option, look in LOOKS.items():
        name = option_class(option)
        dashes = " ".join(f"{d:g}" for d in look.dashes) or "none"
        rules.append(f".{name} {{ stroke: {look.colour}; color: {look.colour}; }}")
        where_lines_are_options = f".by-option.{name}, .by-option .series.{name}"
        rules.append(f"{where_lines_are_options} {{ stroke-dasharray: {dashes}; stroke-width: {look.width:g}; }}")
    return "\n".join(rules) + "\n"


STYLESHEET = ROOT / "static" / "options.css"

if __name__ == "__main__":
    STYLESHEET.write_text(stylesheet())
    print(f"wrote {STYLESHEET}")

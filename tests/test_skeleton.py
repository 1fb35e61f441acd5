"""A block kept with slots for its figures (app/skeleton.py) fills in to what rendering it afresh gives."""

from dataclasses import dataclass

from app.web.calculator.skeleton import Skeleton
from app.web.templating import templates

BLOCK = templates.env.from_string(
    '<p>{{ figures[0] }} and <a href="/?{{ figures[1].link }}">{{ figures[1].total }}</a>{{ figures[1].total }}</p>'
)


@dataclass(frozen=True)
class Row:
    link: str
    total: str | None


def render(figures):
    return BLOCK.render(figures=figures)


def test_a_skeleton_filled_in_is_the_block_rendered_with_its_figures_escaped():
    """Cut once at 500 GPU-hours, filled in at 1,250.5: each figure where it was, escaped as the
    template escapes it (the link's & too), a figure used twice in both places."""
    skeleton = Skeleton.cut(render, (500, Row("gpu=H100&gpu_hours=500", "$1,000.00")))
    moved = ("1,250.5", Row("gpu=H100&gpu_hours=1250.5", "$3,126.25"))
    assert skeleton.filled(moved).decode() == render(moved)
    assert b"gpu=H100&amp;gpu_hours=1250.5" in skeleton.filled(moved)
    assert len(skeleton.slots) == 4

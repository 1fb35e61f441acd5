"""The calculator in a real browser: sliders, htmx swaps, the URL as state, and the page without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.pages import htmx_response, is_htmx, open_page

CAPTION = "#results table.options caption"
HEADLINE = "#results p.headline"


def _chart_paths(page: Page) -> list[str]:
    return page.locator("#results svg path.series").evaluate_all("els => els.map(e => e.getAttribute('d'))")


def _totals(page: Page) -> list[str]:
    return page.locator("table.options td.total").all_inner_texts()


def _url_has(name: str, value: str) -> re.Pattern[str]:
    return re.compile(rf"[?&]{name}={re.escape(value)}(&|$)")


def test_moving_the_hours_slider_redraws_chart_and_updates_url(page: Page) -> None:
    """The slider is the main control: moving it must redraw everything and leave a URL that reproduces it."""
    open_page(page)
    hours = page.locator("#gpu_hours")
    before = hours.input_value(), _chart_paths(page), _totals(page)
    assert before[1] and before[2], "the default page should show a chart and a table"

    page.locator("#gpu_hours-slider").focus()
    htmx_response(page, lambda: page.keyboard.press("ArrowRight"))  # one arrow = one whole GPU-hour

    new = hours.input_value()
    assert new == str(int(before[0]) + 1), "the number input should follow the slider, in whole hours"
    expect(page.locator("#gpu_hours-slider")).to_have_attribute("aria-valuetext", f"{new} GPU-h")
    expect(page.locator(CAPTION)).to_contain_text(f"at {float(new):,g} GPU-hours")
    expect(page).to_have_url(_url_has("gpu_hours", new))
    after = _chart_paths(page), _totals(page)
    assert after[0] != before[1], "chart lines should be redrawn"
    assert after[1] != before[2], "table totals should change"

    open_page(page, page.url)
    assert hours.input_value() == new
    assert (_chart_paths(page), _totals(page)) == after, "reloading the URL should give the same answer"


def test_dragging_the_hours_slider_redraws_as_it_moves_and_ends_where_it_stops(page: Page) -> None:
    """While the slider is dragged the chart follows it (no waiting for the hand to stop), and when it is let
    go the results are those of where it stopped, also when its last steps came too fast to each be asked."""
    open_page(page)
    page.evaluate("""() => {
        window.drawn = [];
        document.addEventListener("htmx:afterSwap", (event) => {
            if (event.detail.target.id === "results") drawn.push(performance.now());
        });
        for (const name of ["pointerdown", "pointerup"]) {
            window.addEventListener(name, () => { window[name] = performance.now(); }, true);
        }
    }""")
    slider = page.locator("#gpu_hours-slider")
    box = slider.bounding_box()
    assert box is not None
    y, left, width = box["y"] + box["height"] / 2, box["x"] + 10, box["width"] - 20
    page.mouse.move(left, y)
    page.mouse.down()
    for step in range(1, 13):  # a step every 120 ms or so: a request for each, each with time to land
        page.wait_for_timeout(120)
        page.mouse.move(left + width * step / 20, y)
    for step in range(13, 16):  # the last steps at once: only the trailing request asks for the last one
        page.mouse.move(left + width * step / 20, y)
    page.mouse.up()
    last = slider.input_value()

    expect(page.locator(HEADLINE)).to_contain_text(f"At {int(last):,} GPU-hours")
    page.wait_for_function("!document.querySelector('.htmx-request')")  # nothing left in flight to land late
    expect(page.locator(HEADLINE)).to_contain_text(f"At {int(last):,} GPU-hours")
    expect(page.locator(CAPTION)).to_contain_text(f"at {int(last):,} GPU-hours")
    assert page.locator("#gpu_hours").input_value() == last
    expect(page).to_have_url(_url_has("gpu_hours", last))
    during = page.evaluate("drawn.filter((t) => t >= window.pointerdown && t <= window.pointerup).length")
    assert during >= 2, f"the results were redrawn {during} times while the slider was dragged"


def test_fast_typing_shows_the_last_value_not_a_stale_answer(page: Page) -> None:
    """Inputs faster than the server answers must end on the last value, never on an older late reply
    (two GPUs at once, so that 900 GPU-hours are on the slider too)."""
    open_page(page, "/?peak_gpus=2")
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if is_htmx(r) else None)
    # Irregular gaps, some shorter than the 200 ms debounce and some longer, so several requests go out.
    page.evaluate("""async () => {
        const input = document.getElementById("gpu_hours");
        const gaps = [0, 30, 230, 20, 240, 10, 230, 40, 0];
        for (let i = 0; i < 9; i++) {
            await new Promise(r => setTimeout(r, gaps[i]));
            input.value = String((i + 1) * 100);
            input.dispatchEvent(new Event("input", {bubbles: true}));
        }
    }""")
    expect(page.locator(CAPTION)).to_contain_text("at 900 GPU-hours")
    page.wait_for_function("!document.querySelector('.htmx-request')")  # nothing left in flight to land late

    assert len(statuses) >= 2 and set(statuses) == {200}, f"htmx responses: {statuses}"
    expect(page.locator(CAPTION)).to_contain_text("at 900 GPU-hours")
    expect(page.locator(HEADLINE)).to_contain_text("At 900 GPU-hours")
    expect(page).to_have_url(_url_has("gpu_hours", "900"))
    assert page.locator("#gpu_hours-slider").input_value() == "900"


def test_form_works_without_javascript(browser: Browser, base_url: str) -> None:
    """The form is a plain GET form underneath htmx, so it must work with scripts off."""
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        context.set_default_timeout(5_000)
        page = context.new_page()
        open_page(page)
        expect(page.locator("#gpu_hours-slider")).to_be_hidden()  # a slider moved without script would submit nothing
        page.locator("#gpu_hours").fill("2000")
        with page.expect_navigation():
            page.get_by_role("button", name="Update").first.click()  # the one beside the workload
        assert _url_has("gpu_hours", "2000").search(page.url)
        expect(page.locator(CAPTION)).to_contain_text("at 2,000 GPU-hours")
        expect(page.locator(HEADLINE)).to_contain_text("At 2,000 GPU-hours")
        assert page.locator("#gpu_hours").input_value() == "2000"
    finally:
        context.close()


@pytest.mark.parametrize(("typed", "message"), [("2000000", "must be at most 1,000,000"), ("-5", "must be at least 0")])
def test_bad_hours_show_a_field_error_and_keep_the_other_inputs(page: Page, typed: str, message: str) -> None:
    """A typo must be explained next to its field, without losing the rest of the scenario or the
    last good results, which stay on screen, greyed, until the field is fixed.

    2000000 is only refused by the server; -5 also breaks the input's own min="0", which the browser checks first.
    """
    open_page(page)
    htmx_response(page, lambda: page.locator("#peak_gpus").fill("3"))
    htmx_response(page, lambda: page.locator("#gpu").select_option("A100"))

    page.evaluate("document.addEventListener('htmx:validation:halted', () => document.body.dataset.halted = '1')")
    page.locator("#gpu_hours").fill(typed)
    expect(page.locator("#gpu_hours-error:not(:empty), body[data-halted]")).to_be_attached()
    assert page.locator("body[data-halted]").count() == 0, (
        "htmx's form validation stopped the request: no message shown"
    )
    expect(page.locator("#gpu_hours-error")).to_have_text(message)
    expect(page.locator("#results .problem")).to_contain_text(f"GPU-hours per month {message}")
    assert page.locator("#gpu_hours").input_value() == typed
    assert page.locator("#peak_gpus").input_value() == "3"
    assert page.locator("#gpu").input_value() == "A100"
    expect(page.locator("#gpu_hours")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(CAPTION)).to_contain_text("at 500 GPU-hours")
    assert page.locator("table.options").evaluate("t => getComputedStyle(t.parentElement).opacity") == "0.45"
    expect(page).to_have_url(_url_has("gpu_hours", "500"))  # the URL stays at the inputs of the results shown

    htmx_response(page, lambda: page.locator("#gpu_hours").fill("700"))
    expect(page.locator("#gpu_hours")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#gpu_hours-error")).to_have_text("")
    expect(page.locator("#results .problem")).to_have_count(0)
    expect(page.locator(CAPTION)).to_contain_text("at 700 GPU-hours")


def test_back_and_forward_show_each_steps_inputs_and_results(page: Page) -> None:
    """htmx keeps no copy of the calculator page (hx-history="false"), so back and forward must fetch the
    whole page of that step from the server and show its inputs, slider and results, ready for the next move."""
    open_page(page)
    hours, slider = page.locator("#gpu_hours"), page.locator("#gpu_hours-slider")
    shown = {}
    for value, text in (("300", "300"), ("600", "600")):
        htmx_response(page, lambda value=value: hours.fill(value))
        expect(page.locator(CAPTION)).to_contain_text(f"at {text} GPU-hours")
        shown[value] = page.locator(HEADLINE).inner_text(), _totals(page)
    assert shown["300"] != shown["600"]

    for step, value, text in ((page.go_back, "300", "300"), (page.go_forward, "600", "600")):
        with page.expect_response(lambda r: r.request.headers.get("hx-history-restore-request") == "true") as restore:
            step()
        assert restore.value.status == 200, f"the history restore got {restore.value.status}"
        expect(page).to_have_url(_url_has("gpu_hours", value))
        expect(page.locator(CAPTION)).to_contain_text(f"at {text} GPU-hours")
        assert hours.input_value() == value
        expect(slider).to_be_visible()
        assert slider.input_value() == value
        assert (page.locator(HEADLINE).inner_text(), _totals(page)) == shown[value]

    htmx_response(page, lambda: hours.fill("3000"))  # the restored form still updates the results
    expect(page.locator(CAPTION)).to_contain_text("at 3,000 GPU-hours")


def test_the_hours_slider_ends_at_730_for_each_gpu_used_at_once(page: Page) -> None:
    """One GPU runs 730 hours a month at most: the slider ends there, and at 1,460 for two; the
    number box still takes more (and the page raises the GPUs at once to run them)."""
    open_page(page)
    slider = page.locator("#gpu_hours-slider")
    expect(slider).to_have_attribute("max", "730")
    htmx_response(page, lambda: page.locator("#peak_gpus").fill("2"))
    expect(slider).to_have_attribute("max", "1460")
    slider.focus()
    htmx_response(page, lambda: page.keyboard.press("End"))
    assert page.locator("#gpu_hours").input_value() == "1460"
    expect(page).to_have_url(_url_has("gpu_hours", "1460"))
    beyond = page.locator("#gpu_hours-beyond")
    expect(beyond).to_be_empty()
    htmx_response(page, lambda: page.locator("#gpu_hours").fill("1500"))
    expect(beyond).to_have_text(
        "More than 2 GPUs at once can run in a month (1,460 GPU-hours): the quote uses more GPUs at once."
    )
    htmx_response(page, lambda: page.locator("#peak_gpus").fill("3"))
    expect(beyond).to_be_empty()


def test_every_option_is_drawn_in_its_own_colour_and_dashes(page: Page) -> None:
    """An H100 at 500 GPU-hours draws bare metal committed and virtualized monthly among eight options,
    two that once had no colour: a stroke of `none` (no line, the break-even markers on nothing) and a
    legend key in the text's black. Each line has a stroke; in each frame no two options share a colour
    or a dash pattern, so that they are told apart without colour too; each legend key and table swatch
    is its option's colour, not the text's."""
    open_page(page, "/?gpu=H100&gpu_hours=500")
    frames = page.locator("#results figure.cost-chart > svg").evaluate_all(
        """svgs => svgs.map(svg => [...svg.querySelectorAll("path.series")].map(p => {
            const style = getComputedStyle(p);
            return [p.classList[1], style.stroke, style.strokeDasharray];
        }))"""
    )
    assert len(frames) == 2, "the chart comes in a wide and a narrow frame"
    for lines in frames:
        options = {option for option, _, _ in lines}
        assert {"s-bare_metal-committed", "s-virtualized-monthly"} <= options
        assert [option for option, stroke, _ in lines if stroke == "none"] == [], "a line with no stroke"
        assert len({stroke for _, stroke, _ in lines}) == len(options), f"colours shared: {lines}"
        assert len({dashes for _, _, dashes in lines}) == len(options), f"dash patterns shared: {lines}"

    keys = page.locator("#results :is(svg.line-sample, .swatch)").evaluate_all(
        """els => els.map(e => [
            e.getAttribute("class"), getComputedStyle(e).color, getComputedStyle(e.parentElement).color,
        ])"""
    )
    assert len(keys) >= 16, "the legend's eight keys and the table's swatches"
    assert [key for key, own, text in keys if own == text] == [], "a key in the text's colour"

"""The calculator page for some inputs: whole, its results block as a fragment (a slider's move too), or
kept with only its summaries moved."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from jinja2_fragments import render_block

from app.catalog import ages
from app.catalog.snapshot import Catalogs
from app.deps import VARIES_BY_FRAGMENT
from app.platform.security import csrf_token, remember_csrf
from app.quoting.build import ANY_GPU, QuoteResult, build_quote
from app.quoting.detours import DetourLink, links, quote_detours, refusal_detours
from app.quoting.folds import folded_alike, folds, settled
from app.quoting.moves import move_memo
from app.quoting.params.demand import uploaded
from app.quoting.params.form import default_values, form_of, parse_params, query_of, query_string
from app.quoting.params.quote import FieldErrors, QuoteParams
from app.quoting.provider_view import LABELS, ProviderView, parse_view
from app.quoting.virtualization import measured_tax, tax_pairs
from app.web.calculator.results import shown
from app.web.templating import templates


def pinned(result: QuoteResult) -> dict[str, Any]:
    """What a saved link keeps beyond the inputs: the version quoted, "any GPU" where asked, and where
    GPU-hours were converted to the GPU model quoted, the hours as stated and the GPU model they are of
    (named, so that a later price list cannot make them another's), and the day a date filter counts from."""
    kept = {"catalog_version": result.catalog.version} | result.as_stated | result.params.dated_kept
    return kept | ({"gpu": ANY_GPU} if result.choices else {})


def calculator_page(
    request: Request,
    catalogs: Catalogs,
    query: dict[str, Any],
    fragment: bool = False,
    status_code: int = 200,
    model: type[QuoteParams] = QuoteParams,
    problems: FieldErrors | None = None,
    **extra: Any,
) -> Response:
    """The calculator for these inputs (of `model`, whose fields are the form's): the whole page, or
    its results block for htmx. `problems`: what the route found wrong with an input the quote then
    misses (an upload refused, or one no longer kept), said under it in place of the quote's message."""
    parsed, errors, result, view, detours = _quoted(catalogs, query, model, problems)
    token = None if fragment else csrf_token(request)  # the results block holds no form that posts
    catalog = result.catalog if result else catalogs.at()
    pairs = tax_pairs(catalog) if catalog else ()
    context = {
        "values": {**default_values(model), **query},
        "errors": errors,
        "form": form_of(model),
        "input_labels": form_of(model).labels | LABELS,
        "result": result,
        "moved_folds": (),
        "view": view,
        "shown": None if result is None else shown(result, view, catalogs),
        "today": ages.today(),
        "pinned_inputs": result.params.model_copy(update=pinned(result)).model_dump_json() if result else None,
        "fragment": fragment,
        "catalog": catalog,
        "tax_pairs": pairs,
        "tax_measured": measured_tax(pairs),
        "csrf_token": token,
        "save_values": {},
        "save_errors": {},
        "typed_inputs": _typed_inputs(query, parsed) if result is None else "",
        "uploaded": None if fragment else uploaded(str(query.get("hourly", ""))),
        "detours": detours,
        **extra,
    }
    if fragment and result is not None and not isinstance(parsed, dict):
        block = render_block(templates.env, "calculator/calculator.html", "results", context | {"request": request})
        summaries = _moved_summaries(request, query, parsed, context)
        return HTMLResponse(block.encode() + summaries, status_code=status_code, headers=VARIES_BY_FRAGMENT)
    context["folds"] = folds(settled(query, parsed, model), errors)
    if fragment:
        return _kept_results(request, context)
    response = templates.TemplateResponse(
        request, "calculator/calculator.html", context, status_code=status_code, headers=VARIES_BY_FRAGMENT
    )
    if token is not None:
        remember_csrf(request, response, token)
    return response


def _quoted(
    catalogs: Catalogs, query: dict[str, Any], model: type[QuoteParams], problems: FieldErrors | None
) -> tuple[QuoteParams | FieldErrors, FieldErrors, QuoteResult | None, ProviderView, tuple[DetourLink, ...]]:
    """The inputs as read, what is wrong with them, their quote, the view of the providers' table and
    the detours: a view refused leaves no quote (its message is about the view alone)."""
    parsed, view = parse_params(query, model), parse_view(query)
    built = parsed if isinstance(parsed, dict) else build_quote(catalogs, parsed)
    if isinstance(built, dict) and problems:
        built = built | problems
    errors, result = (built, None) if isinstance(built, dict) else ({}, built)
    if isinstance(view, dict):
        return parsed, errors | view, None, ProviderView(), ()
    return parsed, errors, result, view, () if problems else _detours(catalogs, parsed, errors, result)


def _detours(
    catalogs: Catalogs, parsed: QuoteParams | FieldErrors, errors: FieldErrors, result: QuoteResult | None
) -> tuple[DetourLink, ...]:
    """Where a quote with no offer, or a job refused, leads: the nearest inputs that give offers, each
    linked at the inputs as asked with its one change (the version asked for kept). Worked out once per
    memo of the inputs: a quote's count offers, which GPU-hours leave alone; a refusal's depend on the
    GPU-hours and the messages too. None for a view refused, whose message is about the view alone."""
    if isinstance(parsed, dict) or (result is not None and result.quote.options):
        return ()
    if result is not None:
        assert result.memo is not None, "build_quote gives every result its memo"
        found = result.memo.part("detours", lambda: quote_detours(catalogs, parsed))
    else:
        catalog = catalogs.at(parsed.catalog_version)
        refused = parsed.gpu_hours, tuple(sorted(errors.items()))
        if catalog is None:
            return ()
        found = move_memo(catalog, parsed).part(
            ("refusal detours", refused), lambda: refusal_detours(catalogs, parsed, errors)
        )
    return links(found, lambda update: "/?" + query_string(parsed.model_copy(update=update), frozenset(), True))


def _typed_inputs(query: dict[str, Any], parsed: QuoteParams | FieldErrors) -> str:
    """The query an upload keeps where the results name none (inputs that cannot be quoted): as
    read, else as typed; never an upload's hours."""
    if not isinstance(parsed, dict):
        return query_string(parsed, frozenset(), changed_only=True)
    return urlencode({k: v for k, v in query.items() if k != "hourly"}, doseq=True)


def _moved_summaries(request: Request, query: dict[str, Any], params: QuoteParams, context: dict[str, Any]) -> bytes:
    """The summaries of the folded groups that differ from those of the inputs in the page's address
    (htmx sends it; the calculator pushes each change there), to swap in out of band: none for a
    slider's move, whose response stays one swap. From another page's address (a saved scenario's),
    all of them."""
    model = type(params)
    current = urlsplit(request.headers.get("HX-Current-URL", ""))
    before = query_of(parse_qsl(current.query, keep_blank_values=True), model) if current.path == "/" else None
    if before is not None and folded_alike(query, before, model):
        return b""
    now = folds(params, {})
    if before is None:
        moved = list(now)
    else:
        then = folds(settled(before, parse_params(before, model), model), {})
        moved = [name for name, fold in now.items() if fold.changes != then[name].changes]
    if not moved:
        return b""
    summaries = context | {"folds": now, "moved_folds": moved}
    return render_block(templates.env, "calculator/calculator.html", "fold_summaries", summaries).encode()


def _kept_results(request: Request, context: dict[str, Any]) -> Response:
    """A live update with a mistake: the messages go next to the fields and above the results, and
    the last good results stay on screen (greyed by the stylesheet), the URL at their inputs. The
    save form's inputs are emptied: saving now would keep the last good inputs, not the form's (a
    USD scenario, say, while EUR is chosen), so it is refused until the inputs are fixed."""
    response = templates.TemplateResponse(
        request,
        "calculator/calculator.html",
        context | {"kept_results": True, "moved_folds": list(context["folds"])},
        block_names=["results_problem", "save_inputs", "error_slots", "fold_summaries"],
    )
    response.headers.update({"HX-Reswap": "none", "HX-Push-Url": "false"} | VARIES_BY_FRAGMENT)
    return response

"""The memo of a move of the GPU-hours slider: what quoting one set of inputs reuses at any GPU-hours,
kept with its catalog version and keyed by the inputs it depends on."""

from __future__ import annotations

from app.catalog import ages
from app.catalog.cache import Memo, MemoEntry
from app.catalog.snapshot import Catalogs, CatalogSnapshot
from app.platform.settings import settings
from app.quoting.estimates import checked_already
from app.quoting.params.quote import ANY_GPU, Job, QuoteParams, SizeParams

MOVES_KEPT = 64
"""Inputs-but-GPU-hours whose memo each catalog version keeps, the most recently used..."""
MOVES_BYTES = settings.catalog_bytes_kept // 3
"""...in at most a third of the bytes the process keeps of the catalog (the newest version is kept
whatever its size, so its memo must be bounded on its own)."""
MOVED = {"gpu_hours"}
"""What a move of the slider changes: the one input left out of the memo's key."""


def move_key(params: QuoteParams) -> str:
    """Every input but GPU-hours, as the memo of a slider move is keyed: derived from the parsed
    inputs, so that an input added to QuoteParams is in the key without another edit; and the day
    prices' ages count to, which "only prices dated within N days" moves at midnight."""
    return f"{ages.today():%Y-%m-%d} {params.model_dump_json(exclude=MOVED)}"


def _moves(catalog: CatalogSnapshot) -> Memo[str]:
    return catalog.derived.memos("moves", MOVES_KEPT, MOVES_BYTES)


def move_memo(catalog: CatalogSnapshot, params: QuoteParams) -> MemoEntry:
    """What a move of the GPU-hours slider reuses for these inputs at this version: the contenders,
    the break-evens and, filled in by the page, the charts drawn and the queries its links carry less
    GPU-hours. Kept with the version, counted in its bytes as it fills, given up with it."""
    return _moves(catalog).entry(move_key(params))


ORDINARY_OFFERS_LIGHT = 1_000
"""The offers of one GPU model an ordinary quote's new inputs are light work on: 12 ms for the 181
H100 offers shipped, 0.09-0.13 s for 3,800 at the catalog's bound (bench/bench_import.py)."""


def heavy(catalogs: Catalogs, params: QuoteParams) -> bool:
    """Whether quoting these inputs is heavy work, to run in its lane (app/platform/heavy_work.py): a
    split (a year up to 1,024 GPUs takes a second), and any GPU, a stated job (any GPU at ten times
    the catalog, 0.2-0.4 s; a version's first serving quote, 0.8 s) or one GPU model of more than
    ORDINARY_OFFERS_LIGHT offers, unless their memo holds them already, as on a move of the slider.
    An ordinary quote, one GPU model at GPU-hours, on the shipped catalog never is: bench/bench_heavy.py
    measures them."""
    if params.job is Job.SPLIT:
        return True
    catalog = catalogs.at(params.catalog_version)
    if catalog is None or _ordinary_and_light(catalog, params):
        return False
    return not _moves(catalog).holds(move_key(params), "contenders")


def _ordinary_and_light(catalog: CatalogSnapshot, params: QuoteParams) -> bool:
    ordinary = params.gpu != ANY_GPU and params.job is Job.HOURS and params.hours_gpu in ("", params.gpu)
    return ordinary and len(catalog.offers_by_gpu.get(params.gpu, ())) <= ORDINARY_OFFERS_LIGHT


def heavy_sizing(catalogs: Catalogs, params: SizeParams) -> bool:
    """Whether sizing these inputs (`/api/size`) is heavy work: a serving job worked out on every GPU model
    the catalog offers, at a version whose estimates are not yet checked against its benchmarks (0.8 s
    on the shipped catalog, once per version; milliseconds after, and for any other sizing)."""
    if not params.serves:
        return False
    catalog = catalogs.at(params.catalog_version)
    return catalog is not None and not checked_already(catalog)

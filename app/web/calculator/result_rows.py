"""The queries the results' links carry: the inputs, GPU-hours first, all but GPU-hours made once per
memo of the inputs."""

from __future__ import annotations

from urllib.parse import quote

from app.catalog.cache import MemoEntry
from app.costing.memory import Mode
from app.quoting.build import ANY_GPU, QuoteResult
from app.quoting.moves import MOVED
from app.quoting.params.form import query_string
from app.quoting.params.job import Job


def inputs_query(result: QuoteResult, memo: MemoEntry) -> tuple[str, str]:
    """The inputs as the calculator's query (those at their default left out), and URL-encoded as one
    value: all but GPU-hours made once per memo (a query string costs a move more than all its
    figures), GPU-hours put first per move."""
    p = result.params

    def rest() -> tuple[str, str]:
        kept = p.model_copy(update={"gpu": ANY_GPU} if result.choices else {})
        query = query_string(kept, frozenset(MOVED), changed_only=True)
        return query, quote(query, safe="")

    query, encoded = memo.part("inputs query", rest)
    hours = hours_param(result.stated_hours)
    if not query:
        return hours, quote(hours, safe="")
    return f"{hours}&{query}", f"{quote(hours, safe='')}%26{encoded}"


def hours_param(gpu_hours: float) -> str:
    return f"gpu_hours={int(gpu_hours) if float(gpu_hours).is_integer() else gpu_hours}"  # 500, not 500.0


def chosen_queries(result: QuoteResult, memo: MemoEntry) -> tuple[str, ...]:
    """Where GPU models are listed but not ranked (GPU-hours), each listed GPU model chosen at these
    inputs: the query that quotes the GPU-hours as that GPU model's. All but GPU-hours made once per memo."""
    if not result.not_ranked_why:
        return ()

    def rest() -> tuple[str, ...]:
        chosen = (result.params.model_copy(update={"gpu": c.gpu}) for c, _ in result.gpu_rows)
        return tuple(query_string(p, frozenset(MOVED), changed_only=True) for p in chosen)

    hours = hours_param(result.params.gpu_hours)
    return tuple(f"{hours}&{query}" for query in memo.part("chosen queries", rest))


def as_job_query(result: QuoteResult) -> str:
    """The same inputs stated as the job the model runs for (serving for inference, else its training
    run), any GPU kept and GPU-hours left to the job: the calculator's query that compares GPU models
    on equal work."""
    p = result.params
    job = {"job": Job.SERVE} if p.mode is Mode.INFERENCE else {"job": Job.TRAIN, "train_mode": p.mode}
    return query_string(p.model_copy(update={"gpu": ANY_GPU} | job), frozenset(MOVED), changed_only=True)

"""The inputs of the hybrid split: the demand profile (a base and a peak, a week hour by hour, an
uploaded month or more of hours, or a serving job's tokens over a day), and which option may carry
the base and which the burst."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from app.quoting.params.demand import read_daily, read_hourly, read_weekly
from app.quoting.params.inputs import Fieldset, Input, Number, Whole, Widget
from app.quoting.params.job import Job, JobParams

DEMANDS = (
    ("simple", "a base all month and a peak"),
    ("weekly", "a week, hour by hour (7 lines of 24)"),
    ("hourly", "hour by hour, uploaded (a month or more)"),
    ("serving", "a serving job's tokens over a day (the model below)"),
)
BASES = (
    ("", "the cheapest"),
    ("monthly", "dedicated, monthly"),
    ("committed", "committed (reserved)"),
    ("purchased", "servers you own (Owning the hardware)"),
)
BURSTS = (("", "the cheapest"), ("on_demand", "on demand"), ("spot", "spot"), ("per_second", "serverless"))
WEEK_EXAMPLE = "\n".join(" ".join(["2"] * 8 + ["6"] * 10 + ["2"] * 6) for _ in range(7))
"""Two GPUs at night, six from 08:00 to 18:00, every day: an illustration of the format, no one's data."""
DAY_EXAMPLE = " ".join(["1"] * 8 + ["3"] * 10 + ["2"] * 6)
"""Three times the night's traffic from 08:00 to 18:00, twice it in the evening: the format, no one's data."""
MONTH_EXAMPLE = "gpus\n" + "\n".join(["2"] * 600 + ["10"] * 72)
SPLIT_GPUS_MAX = 1_024
"""The most GPUs at once a profile may reach: every base up to it is priced on every pair of offers,
so a request's time grows with it (a year of hours scattered up to 1,024 takes about a second)."""
HOURLY_MAX = 60_000
"""A year of hours (8,784) at up to 5 digits and a comma each, with room: what a scenario keeps."""
_READERS: dict[str, Callable[[str], tuple[float, ...] | str]] = {
    "weekly": read_weekly,
    "daily": read_daily,
    "hourly": read_hourly,
}
"""Each profile's text as typed, pasted or uploaded, and the reader that refuses it with its first bad hour
and why; empty, a profile is none (an empty day's traffic is even)."""


class SplitParams(JobParams):
    """The split's inputs show for that job alone; the profile sets the GPU-hours and the GPUs at once."""

    demand: Literal["simple", "weekly", "hourly", "serving"] = Input(
        "Demand stated as", Fieldset.JOB, widget=Widget.CHOICE, options=DEMANDS, job=Job.SPLIT,
        help="simple: the base and peak below; weekly: 168 hours typed or pasted; hourly: a CSV uploaded; "
        "serving: a model's output tokens, spread over the day by the traffic below",
    ).field("simple")  # fmt: skip
    base_gpus: Whole = Input(
        "GPUs in use all month", Fieldset.JOB, unit="GPUs", job=Job.SPLIT, demand="simple",
        help="the steady load (simple demand)",
    ).field(2, ge=0, le=SPLIT_GPUS_MAX)  # fmt: skip
    split_peak: Whole = Input(
        "GPUs at the peak", Fieldset.JOB, unit="GPUs", job=Job.SPLIT, demand="simple",
        help="at least the steady load (simple demand)",
    ).field(10, ge=1, le=SPLIT_GPUS_MAX)  # fmt: skip
    peak_hours: Number = Input(
        "Hours at the peak", Fieldset.JOB, unit="hours a month", job=Job.SPLIT, demand="simple",
        help="of 730 (simple demand)",
    ).field(100, ge=0, le=730)  # fmt: skip
    weekly: str = Input(
        "A week, hour by hour", Fieldset.JOB, widget=Widget.TEXT, job=Job.SPLIT, demand="weekly",
        placeholder="7 lines of 24 numbers, Monday 00:00 first: the GPUs in use each hour",
        help="168 whole numbers of GPUs in use, separated by spaces, commas or lines (weekly demand)",
    ).field("", max_length=4_000, examples=[WEEK_EXAMPLE])  # fmt: skip
    daily: str = Input(
        "Traffic over a day", Fieldset.JOB, widget=Widget.TEXT, job=Job.SPLIT, demand="serving",
        placeholder="24 numbers, 00:00 first: requests, tokens or shares of each hour, in any unit; empty: even",
        help="only the proportions count: each hour gets its share of a day's tokens, and the replicas they need "
        "(at least one, since the service is up); every day alike (serving demand)",
    ).field("", max_length=1_000, examples=[DAY_EXAMPLE])  # fmt: skip
    hourly_key: str = Input(
        "Uploaded demand", None, widget=Widget.HIDDEN, help="the key an upload of hourly demand was stored under",
    ).field("", max_length=64, pattern=r"^[0-9a-f]*$", examples=["9c1185a5c5e9fc54"])  # fmt: skip
    hourly: str = Input(
        "Hourly demand", None, widget=Widget.STORED,
        help="GPUs in use hour by hour, one hour a line (its last column): 672 to 8,784 hours (hourly demand)",
    ).field("", max_length=HOURLY_MAX, examples=[MONTH_EXAMPLE])  # fmt: skip
    split_base: Literal["", "monthly", "committed", "purchased"] = Input(
        "Base on", Fieldset.JOB, widget=Widget.CHOICE, options=BASES, job=Job.SPLIT,
        help="the kind of capacity for the base (default: the cheapest of them)",
    ).field("")  # fmt: skip
    split_burst: Literal["", "on_demand", "spot", "per_second"] = Input(
        "Burst to", Fieldset.JOB, widget=Widget.CHOICE, options=BURSTS, job=Job.SPLIT,
        help="the kind of option for the hours above the base (default: the cheapest of them)",
    ).field("")  # fmt: skip

    @property
    def serves(self) -> bool:
        """A serving job: stated as one, or a split whose demand comes from one."""
        return self.job is Job.SERVE or (self.job is Job.SPLIT and self.demand == "serving")

    @field_validator(*_READERS)
    @classmethod
    def _readable(cls, text: str, info: ValidationInfo) -> str:
        if text.strip() and isinstance(why := _READERS[str(info.field_name)](text), str):
            raise PydanticCustomError("value_error", why)
        return text

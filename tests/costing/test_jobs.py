import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.costing.jobs import (
    ServingJob,
    daily_plan,
    gpu_hours_at_peak,
    gpu_hours_at_rate,
    gpus_at_once,
    per_million_tokens,
    run_plan,
    serving_plan,
    training_flops,
)
from app.costing.quote import cost_offer
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload

H100_BF16_DENSE_TFLOPS = 989.4
LLAMA_3_8B_PARAMETERS = 8.03e9


def test_serving_a_billion_tokens_at_2909_per_second_runs_95_49_hours():
    """1e9 tokens / 2,909 tokens/s / 3,600 s/h = 95.49 hours of one H200's work."""
    plan = serving_plan(ServingJob(output_tokens=1e9, tokens_per_s=2909, replica_gpus=1))
    assert plan.work_hours == pytest.approx(95.49, abs=0.005)


def test_a_service_up_all_month_pays_for_730_gpu_hours_however_little_it_serves():
    """95.49 hours of work fit one replica up 730 h: 1 replica, 1 GPU, max(95.49, 730) x 1 = 730 GPU-h."""
    plan = serving_plan(ServingJob(output_tokens=1e9, tokens_per_s=2909, replica_gpus=1))
    assert (plan.replicas, plan.gpus_at_once, plan.gpu_hours) == (1, 1, pytest.approx(730))


def test_a_batch_pays_only_for_the_hours_it_works():
    """Up 0 hours (a batch): max(95.49, 0 x 1) x 1 GPU = 95.49 GPU-hours on 1 replica."""
    plan = serving_plan(ServingJob(output_tokens=1e9, tokens_per_s=2909, replica_gpus=1, hours_up=0))
    assert (plan.replicas, plan.gpu_hours) == (1, pytest.approx(95.49, abs=0.005))


def test_fifty_billion_tokens_on_4_gpu_replicas_need_7_replicas_all_month():
    """5e10 / 2,909 / 3,600 = 4,774.5 hours of work; replicas = ceil(4,774.5 / 730) = ceil(6.54) = 7,
    7 x 4 = 28 GPUs at once, max(4,774.5, 730 x 7) x 4 = 5,110 x 4 = 20,440 GPU-hours."""
    plan = serving_plan(ServingJob(output_tokens=5e10, tokens_per_s=2909, replica_gpus=4))
    assert plan.work_hours == pytest.approx(4774.5, abs=0.05)
    assert (plan.replicas, plan.gpus_at_once, plan.gpu_hours) == (7, 28, pytest.approx(20_440))


def test_work_of_exactly_two_replica_months_takes_two_replicas():
    """1.13 tokens/s x 3,600 s/h x 1,460 h = 5,939,280 tokens: exactly 2 x 730 hours of work, though
    floating point makes it 1,460.0000000000002 hours; 2 replicas, not 3."""
    plan = serving_plan(ServingJob(output_tokens=5_939_280, tokens_per_s=1.13, replica_gpus=1))
    assert (plan.replicas, plan.gpu_hours) == (2, pytest.approx(1460))


QUIET_NIGHTS_BUSY_DAYS = [1] * 12 + [3] * 12
"""A day whose second half carries three times the first's traffic: 3 / 48 and 1 / 48 of it an hour."""
TEN_REPLICA_MONTHS = 730 * 3600 * 1000 * 10
"""2.628e10 tokens at 1,000 tokens/s: 7,300 hours of work, 10 replicas all month on average."""


def test_a_day_of_quiet_and_busy_halves_needs_5_replicas_at_night_and_15_by_day():
    """7,300 hours of work / 30.42 days = 240 hours a day; a quiet hour holds 240 x 1 / 48 = 5 replica-
    hours of it, a busy one 240 x 3 / 48 = 15: 5 replicas, then 15; (12 x 5 + 12 x 15) x 30.42 =
    7,300 GPU-hours on 1-GPU replicas, 15 at the peak."""
    plan = daily_plan(ServingJob(TEN_REPLICA_MONTHS, 1000, 1), QUIET_NIGHTS_BUSY_DAYS)
    assert plan.by_hour == (5,) * 12 + (15,) * 12
    assert (plan.replicas, plan.gpus_at_once, plan.gpu_hours) == (15, 15, pytest.approx(7300))


def test_replicas_of_2_gpus_double_the_gpus_not_the_replicas():
    plan = daily_plan(ServingJob(TEN_REPLICA_MONTHS, 1000, 2), QUIET_NIGHTS_BUSY_DAYS)
    assert (plan.replicas, plan.gpus_at_once, plan.gpu_hours) == (15, 30, pytest.approx(14_600))


def test_an_hour_without_traffic_still_runs_one_replica_and_a_part_replica_rounds_up():
    """A service answering users is up: the silent hours keep 1 replica. 7,300 / 30.42 = 240 hours a
    day over 23 equal hours: 10.43 an hour, so 11 replicas."""
    plan = daily_plan(ServingJob(TEN_REPLICA_MONTHS, 1000, 1), [0] + [1] * 23)
    assert plan.by_hour == (1,) + (11,) * 23


def test_a_shape_of_other_than_24_hours_or_no_traffic_is_refused():
    with pytest.raises(ValueError, match="a day has 24 hours, not 23"):
        daily_plan(ServingJob(1e9, 1000, 1), [1] * 23)
    with pytest.raises(ValueError, match="needs traffic in some hour"):
        daily_plan(ServingJob(1e9, 1000, 1), [0] * 24)


def test_a_2000_dollar_month_for_a_billion_tokens_is_2_dollars_a_million():
    """$2,000 / (1e9 / 1e6) = $2,000 / 1,000 million = $2.00 per million output tokens."""
    assert per_million_tokens(2000, 1e9) == pytest.approx(2.00)


def test_training_llama_3_8b_on_a_billion_tokens_is_4_818e19_flops():
    """6 x 8.03e9 parameters x 1e9 tokens = 4.818e19 FLOPs."""
    assert training_flops(LLAMA_3_8B_PARAMETERS, 1e9, lora=False) == pytest.approx(4.818e19)


def test_4_818e19_flops_on_h100_at_40_percent_take_33_8_gpu_hours():
    """4.818e19 / (989.4e12 FLOP/s x 0.40 x 3,600 s/h) = 4.818e19 / 1.4247e18 = 33.8 GPU-hours."""
    flops = training_flops(LLAMA_3_8B_PARAMETERS, 1e9, lora=False)
    assert gpu_hours_at_peak(flops, H100_BF16_DENSE_TFLOPS, 0.40) == pytest.approx(33.8, abs=0.05)


def test_lora_of_the_same_run_takes_25_5_gpu_hours():
    """LoRA runs 43.1 tokens/s where full fine-tuning runs 32.5: 33.8 x 32.5 / 43.1 = 25.5 GPU-hours."""
    flops = training_flops(LLAMA_3_8B_PARAMETERS, 1e9, lora=True)
    assert gpu_hours_at_peak(flops, H100_BF16_DENSE_TFLOPS, 0.40) == pytest.approx(25.5, abs=0.05)


def test_a_measured_14451_tokens_per_second_per_gpu_trains_a_billion_tokens_in_19_22_gpu_hours():
    """1e9 tokens / 14,451 tokens/s / 3,600 s/h = 19.22 GPU-hours."""
    assert gpu_hours_at_rate(1e9, 14_451) == pytest.approx(19.22, abs=0.005)


def test_33_8_gpu_hours_on_8_gpus_take_4_23_hours_in_one_month():
    """33.8 / 8 = 4.225 hours of wall clock, ceil(4.225 / 730) = 1 month of 33.8 GPU-hours."""
    plan = run_plan(33.8, 8)
    assert plan.wall_clock_hours == pytest.approx(4.225)
    assert (plan.months, plan.gpu_hours_per_month) == (1, pytest.approx(33.8))


def test_10000_gpu_hours_on_8_gpus_run_1250_hours_billed_over_2_months():
    """10,000 / 8 = 1,250 hours; ceil(1,250 / 730) = ceil(1.71) = 2 months of 10,000 / 2 = 5,000 GPU-hours."""
    plan = run_plan(10_000, 8)
    assert (plan.wall_clock_hours, plan.months, plan.gpu_hours_per_month) == (1250, 2, 5000)


def test_3380_gpu_hours_a_month_need_5_gpus_at_once():
    """A month has 730 hours of each GPU: ceil(3,380 / 730) = ceil(4.63) = 5 > 1 at once."""
    assert gpus_at_once(3380, 1) == 5


def test_730_gpu_hours_fit_one_gpu_and_a_ten_thousandth_more_needs_two():
    """ceil(730 / 730) = 1; ceil(730.0001 / 730) = ceil(1.000000137) = 2."""
    assert (gpus_at_once(730, 1), gpus_at_once(730.0001, 1)) == (1, 2)


def test_a_peak_of_8_gpus_holds_until_8_months_of_gpu_hours():
    """8 GPUs hold 8 x 730 = 5,840 GPU-hours a month: 100 and 5,840 need 8 at once, 5,841 need
    ceil(5,841 / 730) = ceil(8.001) = 9."""
    assert [gpus_at_once(h, 8) for h in (100, 5840, 5841)] == [8, 8, 9]


@pytest.mark.parametrize(
    ("impossible", "message"),
    [
        (lambda: serving_plan(ServingJob(1e9, 0, 1)), "throughput"),
        (lambda: serving_plan(ServingJob(1e9, 2909, 0)), "at least 1 GPU"),
        (lambda: serving_plan(ServingJob(1e9, 2909, 1, hours_up=744)), "hours a month"),
        (lambda: per_million_tokens(2000, 0), "tokens above 0"),
        (lambda: gpu_hours_at_peak(4.8e19, 0, 0.4), "dense peak"),
        (lambda: gpu_hours_at_peak(4.8e19, 989.4, 0), "utilisation"),
        (lambda: gpu_hours_at_peak(4.8e19, 989.4, 1.2), "utilisation"),
        (lambda: gpu_hours_at_rate(1e9, 0), "training rate"),
        (lambda: run_plan(100, 0), "at least 1 GPU"),
        (lambda: gpus_at_once(100, 0), "at least 1 GPU"),
    ],
)
def test_an_impossible_argument_is_refused_rather_than_divided_by(impossible, message):
    """A rate of 0, no GPUs, an MFU outside (0, 1] or more than 730 hours up would divide by zero or
    price a month that cannot exist."""
    with pytest.raises(ValueError, match=message):
        impossible()


tokens = st.floats(min_value=0, max_value=1e13)
rates = st.floats(min_value=1, max_value=100_000)
replica_sizes = st.integers(min_value=1, max_value=16)
hours_up = st.one_of(st.just(0.0), st.floats(min_value=1, max_value=730))


@given(tokens, tokens, rates, replica_sizes, hours_up)
def test_more_tokens_never_need_fewer_gpu_hours_replicas_or_gpus_at_once(t1, t2, rate, gpus, up):
    """Work grows with T, replicas = ceil(work / U) with it, and max(work, U x replicas) with both."""
    less, more = (serving_plan(ServingJob(t, rate, gpus, up)) for t in sorted((t1, t2)))
    assert more.gpu_hours >= less.gpu_hours
    assert more.replicas >= less.replicas
    assert more.gpus_at_once >= less.gpus_at_once


@given(tokens, rates, replica_sizes, hours_up)
def test_a_month_of_serving_never_needs_more_than_730_hours_of_each_gpu(t, rate, gpus, up):
    """replicas >= work / U (work / 730 for a batch) and U <= 730, so max(work, U x replicas) x g is at
    most 730 x replicas x g, within the float noise forgiven in rounding up."""
    plan = serving_plan(ServingJob(t, rate, gpus, up))
    assert plan.gpu_hours <= 730 * plan.gpus_at_once * (1 + 1e-9)


ON_DEMAND_8_GPUS = Offer(1, "acme", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 8, 80.0, PricePeriod.HOUR)
MONTHLY_8_GPU_NODE = Offer(2, "acme", Tenancy.BARE_METAL, Billing.MONTHLY, 8, 20_000.0, PricePeriod.MONTH)
SERVERLESS_PER_SECOND = Offer(3, "acme", Tenancy.SERVERLESS, Billing.PER_SECOND, 1, 0.001, PricePeriod.SECOND)


def month_of_serving(offer: Offer, job: ServingJob) -> float:
    plan = serving_plan(job)
    return cost_offer(offer, Workload(gpu_hours=plan.gpu_hours, peak_gpus=plan.gpus_at_once), Assumptions()).total


@given(
    tokens,
    tokens,
    rates,
    replica_sizes,
    st.floats(min_value=1, max_value=730),
    st.sampled_from([ON_DEMAND_8_GPUS, MONTHLY_8_GPU_NODE, SERVERLESS_PER_SECOND]),
)
def test_serving_more_tokens_never_costs_less(t1, t2, rate, gpus, up, offer):
    """A service holds its replicas for the hours it is up, so more tokens only add replicas. To float
    precision: hypothesis found 334,484.2105263158 after 334,484.21052631584, 3e-11 USD apart."""
    less, more = (month_of_serving(offer, ServingJob(t, rate, gpus, up)) for t in sorted((t1, t2)))
    assert more >= less * (1 - 1e-12)


@given(tokens, tokens, rates, replica_sizes, st.sampled_from([MONTHLY_8_GPU_NODE, SERVERLESS_PER_SECOND]))
def test_a_bigger_batch_never_costs_less_on_a_node_or_serverless(t1, t2, rate, gpus, offer):
    """Nodes cover both the GPUs at once and the GPU-hours; serverless bills the GPU-hours: both grow."""
    less, more = (month_of_serving(offer, ServingJob(t, rate, gpus, 0)) for t in sorted((t1, t2)))
    assert more >= less


def month_of_batch(offer: Offer, job: ServingJob) -> float:
    plan = serving_plan(job)
    workload = Workload(gpu_hours=plan.gpu_hours, peak_gpus=plan.gpus_at_once, replica_gpus=job.replica_gpus,
                        fills_units=True)  # fmt: skip
    return cost_offer(offer, workload, Assumptions()).total


def test_a_batch_fills_whole_on_demand_instances_with_replicas():
    """$80/h for 8 GPUs is $10 a GPU-hour, / (1 - 0.026) tax = $10.267. A batch runs as many 1-GPU
    replicas at once as the instance holds, so 730 hours of work bill 730 GPU-hours, $7,494.87, and 731
    bill $7,505.13: never the 8 x 730 of one replica on a whole instance."""
    rate = 1.0
    small = month_of_batch(ON_DEMAND_8_GPUS, ServingJob(730 * 3600 * rate, rate, 1, 0))
    big = month_of_batch(ON_DEMAND_8_GPUS, ServingJob(731 * 3600 * rate, rate, 1, 0))
    assert (round(small, 2), round(big, 2)) == (7494.87, 7505.13)


@given(tokens, tokens, rates, st.sampled_from([1, 2, 4, 8]), st.sampled_from([ON_DEMAND_8_GPUS, MONTHLY_8_GPU_NODE]))
def test_a_bigger_batch_never_costs_less_on_whole_instances(t1, t2, rate, gpus, offer):
    """A batch that fills its instances bills its GPU-hours (times what a unit leaves idle, the same
    at any size): more work never costs less."""
    less, more = (month_of_batch(offer, ServingJob(t, rate, gpus, 0)) for t in sorted((t1, t2)))
    assert more >= less * (1 - 1e-12)


parameters = st.floats(min_value=1e6, max_value=1e13)
training_tokens = st.floats(min_value=1e6, max_value=1e14)
tflops = st.floats(min_value=10, max_value=10_000)
utilisations = st.floats(min_value=0.01, max_value=1)


@given(parameters, parameters, training_tokens, training_tokens, tflops, utilisations, st.booleans())
def test_more_parameters_or_tokens_never_train_in_fewer_gpu_hours(n1, n2, d1, d2, peak, mfu, lora):
    """GPU-hours = 6 x N x D (x 0.754 for LoRA) / (peak x MFU x 3,600): growing in N and in D."""
    (n_less, n_more), (d_less, d_more) = sorted((n1, n2)), sorted((d1, d2))
    less = gpu_hours_at_peak(training_flops(n_less, d_less, lora), peak, mfu)
    assert gpu_hours_at_peak(training_flops(n_more, d_less, lora), peak, mfu) >= less
    assert gpu_hours_at_peak(training_flops(n_less, d_more, lora), peak, mfu) >= less


@given(parameters, training_tokens, tflops, utilisations, utilisations, st.booleans())
def test_higher_utilisation_never_trains_in_more_gpu_hours(n, d, peak, u1, u2, lora):
    """The MFU divides: more of the peak used, fewer GPU-hours."""
    low, high = sorted((u1, u2))
    flops = training_flops(n, d, lora)
    assert gpu_hours_at_peak(flops, peak, high) <= gpu_hours_at_peak(flops, peak, low)

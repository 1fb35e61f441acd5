"""Sizing against figures worked by hand from DOMAIN.md (memory footprint)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.costing.memory import (
    GIB,
    Mode,
    ModelShape,
    Precision,
    Run,
    SizingAssumptions,
    fit,
    kv_bytes_per_token,
    memory_need,
)

LLAMA_70B = ModelShape(parameters=70e9, layers=80, hidden_size=8192, kv_heads=8, head_dim=128)
SEVEN_B = ModelShape(parameters=7e9, layers=32, hidden_size=4096, kv_heads=8, head_dim=128)
NO_OVERHEAD = SizingAssumptions(overhead_share=0.0)


def terms(need):
    return {t.name: t.bytes for t in need.terms}


def test_70b_parameters_at_bf16_weigh_140_gb():
    """70e9 x 2 bytes = 140 GB, the checkpoint moved out when serving."""
    need = memory_need(Run(LLAMA_70B, Precision.BF16), NO_OVERHEAD)
    assert terms(need)["weights"] == 140e9 and need.checkpoint_bytes == 140e9


@pytest.mark.parametrize(("precision", "gb"), [("fp32", 280), ("bf16", 140), ("fp8", 70), ("int4", 35)])
def test_weights_take_4_2_1_or_half_a_byte_a_parameter(precision, gb):
    assert terms(memory_need(Run(LLAMA_70B, Precision(precision)), NO_OVERHEAD))["weights"] == gb * 1e9


def test_llama_70b_kv_cache_is_327_680_bytes_a_token_and_2_68_gb_for_8k_tokens():
    """2 x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 per token; x 8,192 x 1 = 2,684,354,560."""
    assert kv_bytes_per_token(LLAMA_70B, Precision.BF16) == 327_680
    need = memory_need(Run(LLAMA_70B, context=8192, sequences=1), NO_OVERHEAD)
    assert terms(need)["KV cache"] == 2_684_354_560


def test_deepseek_r1_caches_a_latent_of_576_values_per_layer_70_272_bytes_a_token_in_bf16():
    """61 layers x (512 + 64) x 2 bytes = 70,272, not 2 x 128 KV heads x 128 x 2 x 61 = 3,997,696."""
    deepseek = ModelShape(parameters=671e9, layers=61, hidden_size=7168, kv_heads=128, head_dim=128, kv_latent=576)
    assert kv_bytes_per_token(deepseek, Precision.BF16) == 70_272
    need = memory_need(Run(deepseek, context=1000), NO_OVERHEAD)
    assert terms(need)["KV cache"] == 70_272_000
    assert need.terms[1].formula.startswith("61 layers x 576 latent values x 2 bytes (bf16) x 1,000 tokens")


def test_grouped_query_attention_with_8_kv_heads_needs_8x_less_cache_than_64():
    mha = ModelShape(parameters=70e9, layers=80, hidden_size=8192, kv_heads=64, head_dim=128)
    assert kv_bytes_per_token(mha, Precision.BF16) == 8 * kv_bytes_per_token(LLAMA_70B, Precision.BF16)


def test_full_fine_tuning_with_adam_holds_16_bytes_a_parameter_before_activations():
    """7B x 16 bytes = 112 GB: 14 GB of BF16 weights and 98 GB of gradients and optimizer state; its
    checkpoint saves the weights and 12 more bytes a parameter (master weights, two moments):
    7B x 14 = 98 GB."""
    need = memory_need(Run(SEVEN_B, Precision.BF16, Mode.FULL), NO_OVERHEAD)
    assert terms(need)["weights"] + terms(need)["gradients and optimizer state"] == 112e9
    assert need.checkpoint_bytes == 98e9


def test_training_activations_keep_one_bf16_hidden_state_a_layer_unless_told_otherwise():
    """2 bytes x 8,192 tokens x 1 sequence x 4,096 hidden x 32 layers = 2,147,483,648 bytes; at an
    assumed 34 bytes (no recomputation) 17 times that."""
    need = memory_need(Run(SEVEN_B, mode=Mode.FULL, context=8192), NO_OVERHEAD)
    assert terms(need)["activations"] == 2_147_483_648
    heavy = memory_need(Run(SEVEN_B, mode=Mode.FULL, context=8192), SizingAssumptions(0.0, activation_bytes=34))
    assert terms(heavy)["activations"] == 17 * 2_147_483_648


def test_lora_trains_an_adapter_of_1_percent_of_the_parameters():
    """7B frozen at BF16 = 14 GB; adapter 1% = 70e6 parameters x 16 bytes = 1.12 GB in memory, and
    its checkpoint 70e6 x (2 + 12) = 0.98 GB."""
    need = memory_need(Run(SEVEN_B, mode=Mode.LORA), NO_OVERHEAD)
    assert terms(need)["weights"] == 14e9
    assert terms(need)["gradients and optimizer state"] == pytest.approx(1.12e9)
    assert need.checkpoint_bytes == pytest.approx(0.98e9)


def test_overhead_is_a_share_of_the_other_terms():
    """140 GB + 2.684 GB of cache = 142.684 GB; 10% overhead = 14.268 GB; 156.953 GB in all."""
    need = memory_need(Run(LLAMA_70B, context=8192))
    assert terms(need)["runtime overhead"] == pytest.approx(14.268_435_456e9)
    assert need.gb == pytest.approx(156.952_790_016)


def test_llama_70b_for_8k_inference_fits_2_h200_or_3_h100_served_on_4():
    """156.95 GB against 90% of 80 GiB (77.31 GB) = 2.03 -> 3 H100, tensor-parallel 4; against 90%
    of 141 GiB (136.26 GB) = 1.15 -> 2 H200. Memory used on 3 H100: 156.95 / 257.70 = 60.9%."""
    need = memory_need(Run(LLAMA_70B, context=8192))
    h100 = fit(need, "H100", 80, 8, SizingAssumptions())
    h200 = fit(need, "H200", 141, 8, SizingAssumptions())
    assert (h100.gpus, h100.tensor_parallel, h200.gpus, h200.tensor_parallel) == (3, 4, 2, 2)
    assert h100.utilisation(need) == pytest.approx(0.609057, abs=1e-6)


def test_a_need_beyond_the_largest_offered_unit_says_it_fits_no_unit():
    """Llama 70B full fine-tuning: 70e9 x 16 = 1,120 GB and more: more than 8 x 80 GiB."""
    need = memory_need(Run(LLAMA_70B, mode=Mode.FULL))
    h100 = fit(need, "H100", 80, 8, SizingAssumptions())
    assert h100.gpus > 8 and not h100.fits_a_unit
    assert not fit(need, "H100", 80, None, SizingAssumptions()).fits_a_unit


def test_the_least_count_is_exact_at_the_boundary():
    """A need of exactly 90% of one 80 GiB GPU fits on 1; a byte more needs 2."""
    edge = 80 * GIB * 0.9
    shape = ModelShape(parameters=edge / 2, layers=1, hidden_size=1, kv_heads=1, head_dim=1)
    exact = memory_need(Run(shape, context=0), NO_OVERHEAD)
    assert fit(exact, "H100", 80, 8, SizingAssumptions()).gpus == 1
    more = memory_need(Run(ModelShape(edge / 2 + 1, 1, 1, 1, 1), context=0), NO_OVERHEAD)
    assert fit(more, "H100", 80, 8, SizingAssumptions()).gpus == 2


contexts = st.integers(min_value=0, max_value=1_000_000)
counts = st.integers(min_value=1, max_value=4096)


@given(contexts, contexts, counts, counts, st.sampled_from(list(Mode)))
def test_more_context_or_more_sequences_never_needs_less_memory(c1, c2, s1, s2, mode):
    small = memory_need(Run(LLAMA_70B, mode=mode, context=min(c1, c2), sequences=min(s1, s2)))
    large = memory_need(Run(LLAMA_70B, mode=mode, context=max(c1, c2), sequences=max(s1, s2)))
    assert large.bytes >= small.bytes
    assert fit(large, "H100", 80, 8, SizingAssumptions()).gpus >= fit(small, "H100", 80, 8, SizingAssumptions()).gpus

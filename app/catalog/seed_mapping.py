"""How the shipped research files map onto the catalog: which file versions SkyPilot rows were read
from, which GPU a serverless price names, and which serverless rows ship (seed_data/README.md)."""

from __future__ import annotations

SKYPILOT_COMMITS = {
    "006059e": "006059e0f18acb1341e22a27751e9f80df6ba92f",
    "098741e": "098741e70562f65d7af1cceb81e33b284f742604",
    "0f40703": "0f4070387edc953d7004cff197940e1918a1d6aa",
    "01acdfd": "01acdfd419ce5afae1289ff14825b893ced0c196",
    "0588751": "0588751183820cf2dab5c8a89447e8aac9f73fd5",
    "0082b04": "0082b0435f3912ae4c566856b272455cc78f4f61",
    "113567a": "113567a74b2f208af08e0c9236e26cc354a2bf65",
    "01b8cdd": "01b8cdda287814b30ff0acb49746cca19fbd4355",
    "000c1d0": "000c1d0bf24621f4ac37cfa585f0897c1aa1d9cf",
    "fdc9d90": "fdc9d908ab0b2af9f468f139fb3f662c8c6b3257",
    "57d6578": "57d65781a544958d7d07014f062f7d1cad8415a7",
    "002363d": "002363dac75913b446b2d3d564ae795678849dfd",
    "d9a304e": "d9a304ea01e96cd4a043159c60d9326d8de4cf0f",
    "002403b": "002403bca05e2ab5110637448f3b1654c983d5d5",
    "e520054": "e520054145d1bce6748bcf18c9a25ddd6ea9a348",
    "1fbe733": "1fbe7331dd1f13d70ac4f249bb7ee7a659fc6b6a",
}
"""Full commits of the SkyPilot catalog files read (seed_data/SOURCES.md), for permanent links."""

EXTRA_GPU_MEMORY_GIB = {"B300": 288, "L40": 48, "RTX-PRO-6000": 96, "A6000": 48, "A4000": 16}
"""GPUs outside gpu_offers.csv, memory as the source rows state it (Qubrid product name, fal and RunPod rows)."""

SERVERLESS_GPUS = {
    "A4000, A4500, RTX 4000": ["A4000"],
    "L4, A5000, 3090": ["L4"],
    "L40, L40S, 6000 Ada PRO": ["L40", "L40S"],
    "A6000, A40": ["A6000"],
    "H100 PRO": ["H100"],
    "A100": ["A100-80GB"],
    "H200 PRO": ["H200"],
    "B200": ["B200"],
    "T4": ["T4"],
    "L4": ["L4"],
    "A10": ["A10"],
    "A100 40GB": ["A100"],
    "A100 80GB": ["A100-80GB"],
    "H100": ["H100"],
    "H200": ["H200"],
    "L40S": ["L40S"],
    "B300": ["B300"],
    "RTX PRO 6000": ["RTX-PRO-6000"],
}
"""Serverless GPU names as published -> our GPU models (RunPod prices a group of GPUs at one rate)."""


def serverless_row_shipped(row: dict[str, str]) -> bool:
    """One price per provider and GPU: the per-second list rates, not discounts or always-on tiers."""
    rules = {
        "runpod": row["tier"] == "flex",
        "modal": row["source_type"] == "third_party_transcription_unverified",
        "replicate": row["source_type"] == "third_party_transcription_unverified",
        "fal": row["tier"] == "list",
        "runware": True,
    }
    return rules.get(row["provider"], False) and row["gpu"] in SERVERLESS_GPUS


def source_url(source: str) -> str:
    """A permanent link to the file version a SkyPilot-derived row was read from."""
    repo_path, _, short = source.partition("@")
    repo, _, path = repo_path.partition(":")
    if repo == "skypilot-org/skypilot-catalog":
        return f"https://github.com/{repo}/blob/{SKYPILOT_COMMITS[short]}/{path}"
    short = short.split()[0]
    return f"https://github.com/{repo}/blob/{short}/{path}"

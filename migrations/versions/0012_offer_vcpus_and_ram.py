"""offer vcpus and ram, backfilled from the shipped gpu_offers.csv

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-30 03:50:00.000000

"""
import csv
from pathlib import Path
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0012'
down_revision: Union[str, Sequence[str], None] = '0011'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

SEED = Path(__file__).resolve().parents[2] / "app" / "catalog" / "seed_data" / "gpu_offers.csv"
"""The shipped instances' vCPUs and RAM: every version of an offer loaded from it gets them, by key."""


def _machines() -> list[dict[str, object]]:
    with SEED.open(newline="") as f:
        return [
            {"key": f"{r['provider']}:{r['instance_type']}:{r['gpu_model']}:{r['region']}:{billing}",
             "vcpus": int(r["vcpus"]), "ram_gib": r["memory_gib"]}
            for r in csv.DictReader(f)
            for billing, price in (("on_demand", r["price_per_hour_usd"]), ("spot", r["spot_price_per_hour_usd"]))
            if price
        ]


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('offer', schema=None) as batch_op:
        batch_op.add_column(sa.Column('vcpus', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('ram_gib', sa.Numeric(precision=12, scale=3), nullable=True))
    op.get_bind().execute(
        sa.text("UPDATE offer SET vcpus = :vcpus, ram_gib = :ram_gib WHERE key = :key"), _machines()
    )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('offer', schema=None) as batch_op:
        batch_op.drop_column('ram_gib')
        batch_op.drop_column('vcpus')

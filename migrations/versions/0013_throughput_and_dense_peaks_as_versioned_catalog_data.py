"""throughput benchmarks and dense peaks as versioned catalog data

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 01:33:42.325249

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0013'
down_revision: Union[str, Sequence[str], None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('gpupeak',
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('as_of', sa.Date(), nullable=True),
    sa.Column('source_kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('quote', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('notes', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('gpu_model_id', sa.Integer(), nullable=False),
    sa.Column('precision', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('dense_tflops', sa.Numeric(precision=20, scale=3), nullable=False),
    sa.Column('valid_from', sa.Integer(), nullable=False),
    sa.Column('valid_to', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['gpu_model_id'], ['gpumodel.id'], ),
    sa.ForeignKeyConstraint(['valid_from'], ['catalogversion.id'], ),
    sa.ForeignKeyConstraint(['valid_to'], ['catalogversion.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('gpupeak', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_gpupeak_gpu_model_id'), ['gpu_model_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_gpupeak_valid_from'), ['valid_from'], unique=False)

    op.create_table('throughput',
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('as_of', sa.Date(), nullable=True),
    sa.Column('source_kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('quote', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('notes', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('model', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('preset', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('parameters', sa.BigInteger(), nullable=False),
    sa.Column('gpu_model_id', sa.Integer(), nullable=False),
    sa.Column('gpus', sa.Integer(), nullable=False),
    sa.Column('precision', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('precision_published', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('engine', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('scenario', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('input_tokens', sa.Integer(), nullable=True),
    sa.Column('output_tokens', sa.Integer(), nullable=True),
    sa.Column('sequence_length', sa.Integer(), nullable=True),
    sa.Column('ttft_ms', sa.Float(), nullable=True),
    sa.Column('tbt_ms', sa.Float(), nullable=True),
    sa.Column('latency_published', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('tokens_per_s', sa.Numeric(precision=20, scale=3), nullable=False),
    sa.Column('valid_from', sa.Integer(), nullable=False),
    sa.Column('valid_to', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['gpu_model_id'], ['gpumodel.id'], ),
    sa.ForeignKeyConstraint(['valid_from'], ['catalogversion.id'], ),
    sa.ForeignKeyConstraint(['valid_to'], ['catalogversion.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('throughput', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_throughput_gpu_model_id'), ['gpu_model_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_throughput_key'), ['key'], unique=False)
        batch_op.create_index(batch_op.f('ix_throughput_valid_from'), ['valid_from'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('throughput', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_throughput_valid_from'))
        batch_op.drop_index(batch_op.f('ix_throughput_key'))
        batch_op.drop_index(batch_op.f('ix_throughput_gpu_model_id'))

    op.drop_table('throughput')
    with op.batch_alter_table('gpupeak', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_gpupeak_valid_from'))
        batch_op.drop_index(batch_op.f('ix_gpupeak_gpu_model_id'))

    op.drop_table('gpupeak')

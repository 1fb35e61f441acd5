"""offer setup fee: charged once, in the price's currency; empty where the source states none

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 02:57:42.538518

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0014'
down_revision: Union[str, Sequence[str], None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('offer', schema=None) as batch_op:
        batch_op.add_column(sa.Column('setup_fee_usd', sa.Numeric(precision=20, scale=8), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('offer', schema=None) as batch_op:
        batch_op.drop_column('setup_fee_usd')

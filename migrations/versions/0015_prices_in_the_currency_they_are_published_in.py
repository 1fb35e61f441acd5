"""prices in the currency they are published in: offers, egress tiers and storage prices carry
their currency (USD for every row so far) and their amounts lose the _usd in their names

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 04:40:00

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0015'
down_revision: Union[str, Sequence[str], None] = '0014'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

RENAMED = {
    'offer': (('price_usd', 'price'), ('setup_fee_usd', 'setup_fee')),
    'egresstier': (('usd_per_gb', 'per_gb'),),
    'storageprice': (('usd_per_gb_month', 'per_gb_month'),),
}


def upgrade() -> None:
    """Upgrade schema."""
    for table, columns in RENAMED.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for old, new in columns:
                batch_op.alter_column(old, new_column_name=new)
            batch_op.add_column(sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default='USD'))


def downgrade() -> None:
    """Downgrade schema."""
    for table, columns in RENAMED.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('currency')
            for old, new in columns:
                batch_op.alter_column(new, new_column_name=old)

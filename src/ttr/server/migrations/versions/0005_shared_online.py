"""The online state several servers share: each game's clock, the quick-play queues and their matches, the
open tables and their seats (`ttr.server.online_tables`, `ttr.server.shared_state`).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the five tables and their indexes."""
    op.create_table(
        "ttr_clocks",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "ttr_queue",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ttr_accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("queue", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("wait", sa.Float, nullable=False),
        sa.Column("held_by", sa.String(64), nullable=True),
        sa.Column("held_until", sa.Float, nullable=True),
    )
    op.create_index("ix_ttr_queue_queue_since", "ttr_queue", ["queue", "since"])
    op.create_table(
        "ttr_matches",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ttr_accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("match", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "ttr_open_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("map", sa.String(200), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("starting_by", sa.String(64), nullable=True),
        sa.Column("starting_until", sa.Float, nullable=True),
    )
    op.create_index("ix_ttr_open_tables_created", "ttr_open_tables", ["created"])
    op.create_table(
        "ttr_open_seats",
        sa.Column("ticket_hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("ttr_open_tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("table_id", "n", name="uq_ttr_open_seats_n"),
        sa.UniqueConstraint("table_id", "name_key", name="uq_ttr_open_seats_name"),
        sa.UniqueConstraint("table_id", "account_id", name="uq_ttr_open_seats_account"),
    )


def downgrade() -> None:
    """Drop the five tables."""
    for table in ("ttr_open_seats", "ttr_open_tables", "ttr_matches", "ttr_queue", "ttr_clocks"):
        op.drop_table(table)

"""The tables of playing people online: accounts, their sessions, the seats they hold, game results,
ratings and chat (`ttr.server.online_tables`).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the six tables and their indexes."""
    op.create_table(
        "ttr_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=True, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
    )
    op.create_table(
        "ttr_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ttr_accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_ttr_sessions_account_id", "ttr_sessions", ["account_id"])
    op.create_index("ix_ttr_sessions_expires", "ttr_sessions", ["expires"])
    op.create_table(
        "ttr_seat_accounts",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ttr_accounts.id"), nullable=False),
        sa.Column("claimed", sa.Float, nullable=False),
    )
    op.create_index("ix_ttr_seat_accounts_account_id", "ttr_seat_accounts", ["account_id"])
    op.create_table(
        "ttr_results",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ttr_accounts.id"), nullable=False),
        sa.Column("map", sa.String(200), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("tickets_done", sa.Integer, nullable=False),
        sa.Column("tickets_failed", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_index("ix_ttr_results_account_id", "ttr_results", ["account_id"])
    op.create_table(
        "ttr_ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ttr_accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("map", sa.String(200), primary_key=True),
        sa.Column("seats", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ttr_ratings_board", "ttr_ratings", ["map", "seats", "mu"])
    op.create_table(
        "ttr_chat",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop the six tables."""
    for table in ("ttr_chat", "ttr_ratings", "ttr_results", "ttr_seat_accounts", "ttr_sessions", "ttr_accounts"):
        op.drop_table(table)

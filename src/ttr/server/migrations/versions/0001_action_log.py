"""The action log: ttr_games and ttr_actions as the first SQL store made them (created only where missing,
so a database made before the migrations is taken as it is).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the two tables where they are missing."""
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "ttr_games" not in existing:
        op.create_table(
            "ttr_games",
            sa.Column("id", sa.String(64), primary_key=True),
            sa.Column("map", sa.String(200), nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("seats", sa.Text, nullable=False),
            sa.Column("when_people_leave", sa.String(16), nullable=False),
            sa.Column("bot_delay", sa.Float, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("winners", sa.Text, nullable=True),
            sa.Column("extra", sa.Text, nullable=False),
        )
        op.create_index("ix_ttr_games_created", "ttr_games", ["created"])
        op.create_index("ix_ttr_games_status", "ttr_games", ["status"])
    if "ttr_actions" not in existing:
        op.create_table(
            "ttr_actions",
            sa.Column("game_id", sa.String(64), sa.ForeignKey("ttr_games.id"), primary_key=True),
            sa.Column("version", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("action_id", sa.Integer, nullable=False),
        )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("ttr_actions")
    op.drop_table("ttr_games")

"""Game reviews: a finished game's review of one seat (`ttr.review`), kept so that it opens again at once.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `ttr_reviews`."""
    op.create_table(
        "ttr_reviews",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("ttr_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("review", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop `ttr_reviews`."""
    op.drop_table("ttr_reviews")

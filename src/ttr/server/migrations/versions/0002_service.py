"""A public site's columns: each game's creator and last activity (caps and expiry), and the lease table
of the servers that share a database.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `creator` and `updated` (filled from `created`), their indexes, and `ttr_leases`."""
    op.add_column("ttr_games", sa.Column("creator", sa.String(64), nullable=True))
    op.add_column("ttr_games", sa.Column("updated", sa.Float, nullable=True))
    op.execute("UPDATE ttr_games SET updated = created")
    op.create_index("ix_ttr_games_creator_status", "ttr_games", ["creator", "status"])
    op.create_index("ix_ttr_games_status_updated", "ttr_games", ["status", "updated"])
    op.create_table(
        "ttr_leases",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_ttr_leases_owner", "ttr_leases", ["owner"])


def downgrade() -> None:
    """Drop what `upgrade` added."""
    op.drop_table("ttr_leases")
    op.drop_index("ix_ttr_games_status_updated", "ttr_games")
    op.drop_index("ix_ttr_games_creator_status", "ttr_games")
    with op.batch_alter_table("ttr_games") as batch:
        batch.drop_column("updated")
        batch.drop_column("creator")

"""The constants of the `ttr-map/1` map format that both the loader (`ttr.maps.model`) and the checker
(`ttr.maps.check`) read, kept apart so that neither imports the other for them."""

from __future__ import annotations

MAP_FORMAT = "ttr-map/1"  # the `format` field of every map file
TIEBREAKS = ("tickets_completed", "fewest_stations_built", "longest_path")  # the known `rules.tiebreaks`

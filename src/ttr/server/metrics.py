"""Prometheus metrics of `ttr serve` (prometheus-client), served at `/metrics`: one registry per app.

`ttr_actions_total{by}` (accepted actions, by people or bots), `ttr_action_seconds` (a person's action:
received on the socket to the update queued to every socket), `ttr_sockets`, `ttr_games_running` and
`ttr_games_in_memory` (this server), `ttr_bot_queue` (bot moves being worked out), `ttr_hints_total`,
`ttr_refusals_total{reason}` (the error code of every refused message or request), `ttr_gc_seconds{generation}`
(each garbage collection's pause, `ttr.server.collector`).
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
GC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5)


class Metrics:
    """The server's metrics; the gauges read their values from the callables when scraped."""

    def __init__(self, sockets: Callable[[], float], running: Callable[[], float], in_memory: Callable[[], float],
                 bot_queue: Callable[[], float]) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter("ttr_actions", "Accepted actions", ["by"], registry=self.registry)
        self.action_seconds = Histogram("ttr_action_seconds", "A person's action: received on the socket to the "
                                        "update queued to every socket of the game", buckets=ACTION_BUCKETS,
                                        registry=self.registry)
        self.gc_seconds = Histogram("ttr_gc_seconds", "Garbage collection pauses, by generation", ["generation"],
                                    buckets=GC_BUCKETS, registry=self.registry)
        self.hints = Counter("ttr_hints", "Hints worked out", registry=self.registry)
        self.refusals = Counter("ttr_refusals", "Refused messages and requests, by error code", ["reason"],
                                registry=self.registry)
        for name, text, read in (("ttr_sockets", "Game sockets joined on this server", sockets),
                                 ("ttr_games_running", "Running games in this server's memory", running),
                                 ("ttr_games_in_memory", "Games in this server's memory", in_memory),
                                 ("ttr_bot_queue", "Bot moves being worked out on this server", bot_queue)):
            Gauge(name, text, registry=self.registry).set_function(read)

    def refused(self, reason: str) -> None:
        """Count one refusal with its error code."""
        self.refusals.labels(reason=reason).inc()

    def render(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)

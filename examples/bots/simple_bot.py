#!/usr/bin/env python3
"""A simple `ttr-bot/1` bot (docs/bot-protocol.md), standard library only, no import of ttr.

Run it in a tournament: `ttr tournament --bots "cmd:python3 examples/bots/simple_bot.py,random"`.

It claims the longest route it can (the legal list holds only affordable claims), pays a tunnel's
extra cards when it can, keeps the fewest tickets it may, and otherwise draws blind (or the first legal
draw when the deck is empty).
"""

from __future__ import annotations

import json
import sys
from typing import Any


def choose(legal: list[dict[str, Any]]) -> int:
    """The index of the action to play."""
    claims = [(sum(a["cards"].values()), -i) for i, a in enumerate(legal) if a["action"] == "claim_route"]
    if claims:
        return -max(claims)[1]
    for wanted in ("pay_tunnel", "draw_card"):
        for i, a in enumerate(legal):
            if a["action"] == wanted and (wanted != "draw_card" or a["from"] == "deck"):
                return i
    keeps = [(len(a["tickets"]), i) for i, a in enumerate(legal) if a["action"] == "keep_tickets"]
    if keeps:
        return min(keeps)[1]
    for i, a in enumerate(legal):
        if a["action"] == "draw_card":
            return i
    return 0


def main() -> None:
    """Answer every message of ttr on stdin, one JSON line each, until the end message or EOF."""
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            print(f"simple_bot: seat {message['seat']} on {message['map']}", file=sys.stderr)
            answer: dict[str, Any] = {"type": "ready", "name": "simple_bot 1.0"}
        elif kind == "decide":
            answer = {"index": choose(message["legal"])}
        elif kind == "end":
            winners = ", ".join(message["final"]["winners"])
            print(f"simple_bot: game over, won by {winners}", file=sys.stderr)
            break
        else:
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

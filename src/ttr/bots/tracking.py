"""Worlds kept in step with the game and weighed by how well the other seats' modelled play explains theirs.

`mcts` samples each world afresh from its belief (`ttr.bots.inference`), which reads the other seats'
claims and face-up picks. Where the other seats play a known policy (greedy, in the search's targets), far
more can be read: every one of their moves, draws included, is what that policy does with their hidden
tickets and hand. `WorldFilter` is a particle filter over whole worlds:

- it starts from worlds sampled as `mcts` samples them (each a guess of every hidden card and ticket; in a
  two-seat game every holding of the other seat's setup tickets is given to some world, when there are no
  more holdings than worlds, so that the real one cannot be missing);
- at each later decision it plays the new entries of the public log in every world: its own moves with
  the cards it saw (its blind draws, the refills of the face-up row and its ticket offers are put on top
  of the world's decks), the other seats' moves as they were made, their blind draws taking the world's
  top card (a guess of the card, kept with the world);
- before another seat's move it asks the modelled policy what that seat would do in the world. Where the
  policy does something else, the cards of that seat's hand it has not shown (taken face up) are dealt
  again from the deck, up to `redeals` times, and the first hand that makes the policy play the move is
  kept (the hand is the least certain guess of a world); a world no hand explains keeps `miss` of its
  weight. A claim, tunnel payment or station the world's hand cannot pay takes the missing cards from the
  deck; a world that cannot follow a move at all (one that gave the other seat a ticket this seat is then
  offered), or no longer shows what the seat sees, is dropped;
- when few worlds carry most of the weight it draws them again by weight (copies get their own deck
  order, so their guesses of later blind draws part ways), and when every world is dropped it starts
  again from fresh samples.

`sample(rng)` then gives a world drawn by weight, its deck order and reshuffle RNG dealt anew (the other
seats' hands and tickets are what the world guessed and kept). The policy's plan cache is part of the
seat's state (greedy plans again when the board changes, with the hand it holds then), so each world
keeps its own copy of it for each modelled seat.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ttr.bots.greedy import GreedyBot, PlanCache
from ttr.bots.playout import GreedyPlayout
from ttr.engine import Action, Game, SeatView, surgery
from ttr.engine import actions as A
from ttr.engine.phases import CHOOSE_SETUP
from ttr.maps import GameMap


class _Particle:
    """One world, its weight and the modelled seats' plan caches."""

    __slots__ = ("plans", "weight", "world")

    def __init__(self, world: Game, weight: float, plans: dict[int, PlanCache]) -> None:
        self.world = world
        self.weight = weight
        self.plans = plans


class WorldFilter:
    """A particle filter over worlds of one seat's game (see the module)."""

    def __init__(self, game_map: GameMap, seat: int, n: int, style: Callable[[GameMap, int, int], GreedyBot],
                 size: int = 400, miss: float = 0.1, seed: int = 0) -> None:
        """A filter for `seat` of an `n`-seat game on `game_map` whose other seats play `style`, keeping
        `size` worlds; a world whose policy would not make a seat's move keeps `miss` of its weight."""
        self.map = game_map
        self.seat = seat
        self.n = n
        self.size = size
        self.miss = miss
        self.policy = GreedyPlayout(game_map, n, seed, dict.fromkeys(range(n), style))
        self.particles: list[_Particle] = []
        self.seen = 0  # log entries played into the worlds
        self.restarts = 0  # times every world was dropped and fresh ones drawn
        self.dropped = 0  # worlds dropped as impossible
        self.rng = random.Random(seed)
        self.redeals = 10  # hands dealt again before a world counts as missing a move (`_weigh`)
        self.known: list[list[int]] = []  # per seat, the cards it took face up and has not played since
        self._cumulative: list[float] = []  # the worlds' weights added up in order (for `sample`)

    # ------------------------------------------------------------------ keeping in step

    def update(self, view: SeatView, fresh: Callable[[], Game]) -> None:
        """Play the log entries of `view` not seen yet into every world, weigh the worlds, check them
        against the view and draw them again if needed; `fresh()` samples a new world of this position
        (used at the start, after a new game and when every world was dropped)."""
        log = view.log
        if not self.particles or self.seen > len(log):
            self._restart(log, fresh)
            return
        offer = view.turn.tickets_offered if view.turn is not None else None
        for index in range(self.seen, len(log)):
            entry = log[index]
            following = log[index + 1] if index + 1 < len(log) else None
            for particle in self.particles:
                if particle.weight > 0 and not self._step(particle, entry, following, offer):
                    particle.weight = 0.0
                    self.dropped += 1
            self._learn(entry)
        self.seen = len(log)
        shown = self._shown(view)
        for particle in self.particles:
            if particle.weight > 0 and not self._agrees(particle.world, shown):
                particle.weight = 0.0
                self.dropped += 1
        total = sum(p.weight for p in self.particles)
        if total <= 0:
            self._restart(log, fresh)
            return
        if self.effective_size() < self.size / 2:
            self._resample(total)
        else:  # scaled to a largest weight of 1, so that long games do not run the weights down to zero
            top = max(p.weight for p in self.particles)
            for particle in self.particles:
                particle.weight /= top
        self._cumulative = list(itertools.accumulate(p.weight for p in self.particles))

    def sample(self, rng: random.Random) -> Game:
        """A world drawn by weight, with its train deck shuffled anew and a new RNG for reshuffles."""
        cumulative = self._cumulative
        index = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
        world = self.particles[min(index, len(cumulative) - 1)].world.copy()
        surgery.reseed(world, rng)
        return world

    def effective_size(self) -> float:
        """How many equally weighted worlds the weights are worth (the effective sample size)."""
        total = sum(p.weight for p in self.particles)
        squares = sum(p.weight * p.weight for p in self.particles)
        return total * total / squares if squares > 0 else 0.0

    def _restart(self, log: Sequence[Mapping[str, Any]], fresh: Callable[[], Game]) -> None:
        """Fresh worlds of the position after `log`, and the cards each seat has shown so far."""
        if self.particles:
            self.restarts += 1
        self.particles = [_Particle(fresh(), 1.0, {}) for _ in range(self.size)]
        self._cumulative = [float(i + 1) for i in range(self.size)]
        self.seen = len(log)
        self.known = [[0] * len(self.map.card_names) for _ in range(self.n)]
        for entry in log:
            self._learn(entry)
        if not self.restarts:
            seen = {self.map.ticket_index[t] for e in log if e["player"] == self.seat for t in e.get("returned", [])}
            self._spread_tickets(seen)

    def _spread_tickets(self, seen: set[int]) -> None:
        """At the start of a two-seat game, where the other seat's possible holdings of tickets are no more
        than the worlds, give every holding to at least one world (a random draw of them would leave some
        out, and a holding no world has can never be found); the tickets swap places with the ticket deck.
        `seen`: tickets the seat returned, which it knows are not held."""
        if self.n != 2:
            return
        q = 1 - self.seat
        first = self.particles[0].world
        first_offer = surgery.setup_offer(first, q)
        offer = not first.tickets[q] and first.phase == CHOOSE_SETUP and len(first_offer) > 0
        held = len(first_offer) if offer else len(first.tickets[q])  # (not chosen yet: its offer)
        pool = sorted({*(first_offer if offer else first.tickets[q]),
                       *(t for t in surgery.hidden_ticket_deck(first) if t not in seen)})
        if not held or math.comb(len(pool), held) > self.size:
            return
        holdings = list(itertools.combinations(pool, held))
        self.rng.shuffle(holdings)
        for i, particle in enumerate(self.particles):
            want = holdings[i % len(holdings)]
            world = particle.world
            tickets = surgery.setup_offer(world, q) if offer else list(world.tickets[q])
            if any(t not in tickets and t not in surgery.hidden_ticket_deck(world) for t in want):
                continue
            for t in want:  # the history's keeps name what the seat holds after each swap
                if t not in tickets:
                    leaving = next(x for x in tickets if x not in want)
                    surgery.swap_hidden_ticket(world, q, leaving, t)
                    tickets[tickets.index(leaving)] = t

    def _learn(self, entry: Mapping[str, Any]) -> None:
        """Follow the cards a seat has shown through one log entry: taken face up, then played."""
        known = self.known[entry["player"]]
        if entry["action"] == "draw_card" and entry.get("from") == "face_up":
            known[self._card(entry["card"])] += 1
        for name, k in (entry.get("cards") or {}).items():
            c = self._card(name)
            known[c] = max(0, known[c] - k)

    def _resample(self, total: float) -> None:
        """Systematic resampling; each copy's deck is shuffled so that later blind draws differ."""
        step = total / self.size
        x = self.rng.random() * step
        out: list[_Particle] = []
        it = iter(self.particles)
        current = next(it)
        acc = current.weight
        for _ in range(self.size):
            while acc < x:
                current = next(it)
                acc += current.weight
            world = current.world.copy()
            surgery.reseed(world, self.rng)
            out.append(_Particle(world, 1.0, dict(current.plans)))
            x += step
        self.particles = out

    # ------------------------------------------------------------------ one log entry in one world

    def _step(self, particle: _Particle, entry: Mapping[str, Any], following: Mapping[str, Any] | None,
              offer: Sequence[str] | None) -> bool:
        """Play one log entry in the particle's world (weighing the world first if another seat made it);
        False if the world cannot follow it."""
        world = particle.world
        p = entry["player"]
        if world.is_over or world.current != p:
            return False
        kind = entry["action"]
        if p != self.seat and kind == "keep_tickets":  # only the count is public: the world keeps what the
            aid = self._modelled(particle, p)  # policy keeps
            if world.cat.kind[aid] != A.KEEP_TICKETS or world.cat.a[aid].bit_count() != entry["count"]:
                particle.weight *= self.miss
                aid = next((i for i in world.legal_ids() if world.cat.a[i].bit_count() == entry["count"]), -1)
                if aid < 0:
                    return False
            world.apply_unchecked(aid)
            return True
        observed = self._observed(world, entry)
        if observed is None:
            return False
        if p != self.seat:
            if not world.is_legal_id(observed) and not self._pay_from_deck(world, p, observed, entry):
                return False
            self._weigh(particle, p, observed)
        else:
            if not world.is_legal_id(observed):
                return False
            if kind == "draw_card" and entry.get("from") == "deck":
                if not self._force(world, [self._card(entry["card"])]):
                    return False
            elif kind == "draw_tickets":
                offered = following.get("tickets", []) + following.get("returned", []) if (
                    following is not None and following.get("action") == "keep_tickets") else offer
                if not offered or not surgery.force_tickets(world, [self.map.ticket_index[t] for t in offered]):
                    return False
        if kind == "draw_card" and entry.get("from") == "face_up" and "face_up" in entry:
            return self._draw_face_up(world, observed, entry)
        if (kind == "claim_route" and "tunnel_reveal" in entry
                and not self._force(world, [self._card(c) for c in entry["tunnel_reveal"]])):
            return False
        world.apply_unchecked(observed)
        return True

    def _weigh(self, particle: _Particle, p: int, observed: int) -> None:
        """Weigh the world by whether seat p's policy makes the `observed` move there. If it does not, the
        cards of p's hand the seat has not shown are dealt again from the deck up to `redeals` times (the
        world's guess of them is its least certain part), keeping the first hand where the policy makes the
        move; else the world keeps its hand and `miss` of its weight."""
        before = particle.plans.get(p)
        if self._modelled(particle, p) == observed:
            return
        after = particle.plans[p]
        world = particle.world
        kept = list(world.hands[p])
        for _ in range(self.redeals):
            if not self._redeal(world, p):
                break
            _restore(particle, p, before)
            if world.is_legal_id(observed) and self._modelled(particle, p) == observed:
                return
        self._set_hand(world, p, kept)
        _restore(particle, p, after)
        particle.weight *= self.miss

    def _draw_face_up(self, world: Game, aid: int, entry: Mapping[str, Any]) -> bool:
        """A face-up pick, the refill (and a reset of the row) forced to what the log shows."""
        row = [self._card(c) if c is not None else -1 for c in entry["face_up"]]
        before = world.face_up
        slot = before.index(world.cat.b[aid])
        changed = sum(1 for i, c in enumerate(row) if i != slot and c != before[i])
        cards = [row[slot]] if not changed else [world.wild, *row]  # a reset: the refill was the wild that did it
        if not self._force(world, [c for c in cards if c >= 0]):
            return False
        world.apply_unchecked(aid)
        return world.face_up == row

    def _free(self, world: Game, q: int) -> list[int]:
        """Per card type, the cards of seat q's hand in the world that q has not shown (taken face up)."""
        known = self.known[q]
        return [max(0, h - k) for h, k in zip(world.hands[q], known, strict=True)]

    def _redeal(self, world: Game, q: int) -> bool:
        """Deal seat q's unshown cards again from the deck (they go back in first); False if it has none."""
        free = self._free(world, q)
        count = sum(free)
        if not count:
            return False
        surgery.return_to_deck(world, q, free)
        surgery.shuffle_deck(world, self.rng)
        surgery.deal_from_deck(world, q, count)
        return True

    def _set_hand(self, world: Game, q: int, hand: list[int]) -> None:
        """Give seat q `hand` again, the deck giving and taking the difference (its order shuffled)."""
        surgery.set_hand(world, q, hand)
        surgery.shuffle_deck(world, self.rng)

    def _pay_from_deck(self, world: Game, q: int, aid: int, entry: Mapping[str, Any]) -> bool:
        """Make seat q's hand in the world able to pay the move `aid` it made (a claim, tunnel payment or
        station: the log `entry` names the cards paid): the cards it lacks come from the deck in exchange
        for unshown cards the payment does not use; False if they cannot."""
        need = [0] * len(world.hands[q])
        for name, k in (entry.get("cards") or {}).items():
            need[self._card(name)] += k
        if not any(need):
            return False
        hand = world.hands[q]
        free = self._free(world, q)
        deck = surgery.hidden_deck(world)
        for c, k in enumerate(need):
            for _ in range(max(0, k - hand[c])):
                spare = [d for d in range(len(hand)) if free[d] > 0 and hand[d] > need[d]]
                if c not in deck or not spare:
                    return False
                d = self.rng.choice(spare)
                surgery.exchange_with_deck(world, q, d, c)
                free[d] -= 1
        surgery.shuffle_deck(world, self.rng)
        return world.is_legal_id(aid)

    def _force(self, world: Game, cards: list[int]) -> bool:
        """Put `cards` on top of the world's train deck so that they are drawn in this order (a reshuffle
        first if the draws run the deck out). A card the deck lacks is taken from another seat's unshown
        cards, which get the deck card it replaces. False if no one has it to give."""
        return surgery.force_draws(world, cards, lambda q, card: q != self.seat and self._free(world, q)[card] > 0)

    def _modelled(self, particle: _Particle, p: int) -> int:
        """The move the policy makes for seat p in the particle's world, with the seat's own plan cache."""
        bot = self.policy.bots[p]
        bot.set_plan_cache(particle.plans.get(p))
        aid = self.policy.choose_id(particle.world)
        particle.plans[p] = bot.plan_cache()
        return aid

    def _observed(self, world: Game, entry: Mapping[str, Any]) -> int | None:
        """The catalogue id of a log entry's move (another seat's blind draw: the draw itself)."""
        kind = entry["action"]
        try:
            if kind == "keep_tickets":
                return world.encode(Action("keep_tickets", tickets=tuple(entry["tickets"])))
            return world.encode(Action.from_json(entry))
        except (KeyError, ValueError):
            return None

    def _card(self, name: str) -> int:
        return self.map.card_index[name]

    def _shown(self, view: SeatView) -> tuple[int, list[int], int, int, list[int], list[int]]:
        """What the view shows that every world must show too (read once per update): the seat to move,
        the face-up row, the deck and discard sizes, this seat's hand (cards per type) and every hand's size."""
        row = [self._card(c) if c is not None else -1 for c in view.face_up]
        players = view.players
        hand = [0] * len(self.map.card_names)
        for name, count in (players[self.seat].hand or {}).items():
            hand[self._card(name)] += count
        sizes = [sum(hand) if q == self.seat else player.hand_size for q, player in enumerate(players)]
        turn = view.turn
        if turn is None:
            raise ValueError("the worlds are kept in step with a game in progress, and this one is over")
        return turn.player, row, view.deck_size, view.discard_size, hand, sizes

    def _agrees(self, world: Game, shown: tuple[int, list[int], int, int, list[int], list[int]]) -> bool:
        """Whether the world shows what the view shows (`_shown`)."""
        current, row, deck_size, discard_size, hand, sizes = shown
        return (not world.is_over and world.current == current and world.face_up == row
                and world.deck_size == deck_size and len(world.discard) == discard_size
                and world.hands[self.seat] == hand and [sum(h) for h in world.hands] == sizes)


def _restore(particle: _Particle, p: int, state: PlanCache | None) -> None:
    """Put seat p's plan cache of the particle back to `state` (None: no plan yet)."""
    if state is None:
        particle.plans.pop(p, None)
    else:
        particle.plans[p] = state

"""Long Route Junkie (`longRouteJunkieAgent.py` of de Mesentier Silva et al., FDG 2017), as intended."""

from __future__ import annotations

from ttr.bots.paper.one_step import OneStepThinker


class LongRouteJunkie(OneStepThinker):
    """One Step Thinker's skeleton, aimed at long routes.

    - It plans its tickets only over open routes of length 3 or more (or its trains, if fewer are left)
      plus its own routes; tickets it cannot join that way are ignored.
    - It chooses tickets at setup and after a draw with the same valuation (ticket points per train still
      needed, over that restricted graph, among the sets that fit); it never draws tickets.
    - With no ticket target it goes for the longest open route, as One Step Thinker, but a gray route
      that one colour of its hand covers scores 15 in the tie-break (10 for One Step Thinker).

    Deviations from the original code: the broken valuation (shared with One Step Thinker) made it keep
    the cheapest legal set, which in Europe always discarded the long ticket; here the intended
    valuation is used at setup too. The fixes of One Step Thinker (target colour, trains check, claim in
    the target colour, the coloured-route tie-break) apply. Guessed as there: tunnels, stations (none).
    """

    name = "long_route_junkie"
    ticket_min_length = 3
    gray_single_colour_score = 15
    draws_tickets = False
    values_setup_tickets = True

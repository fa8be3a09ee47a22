"""The four agents of de Mesentier Silva, Lee, Togelius and Nealen, "AI-based Playtesting of Contemporary
Board Games" (FDG 2017), on our full rules, following their intended behaviour (docs/fdg2017.md lists what
the original code did differently)."""

from ttr.bots.paper.destination_hungry import DestinationHungry
from ttr.bots.paper.long_route_junkie import LongRouteJunkie
from ttr.bots.paper.one_step import OneStepThinker
from ttr.bots.paper.route_focus import RouteFocus

__all__ = ["DestinationHungry", "LongRouteJunkie", "OneStepThinker", "RouteFocus"]

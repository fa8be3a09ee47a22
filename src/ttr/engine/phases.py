"""The phases of a turn, as `Game.phase` holds them, and their names in records and views."""

CHOOSE_SETUP = 0  # a seat chooses its starting tickets (E-SETUP-5)
MAIN = 1  # the start of a turn: any of the four actions
SECOND_CARD = 2  # the second card of a draw (E-DRAW-1)
TUNNEL = 3  # a tunnel's extra cards are due: pay or abandon (E-TUN-2, E-TUN-4)
CHOOSE_TICKETS = 4  # after draw_tickets: keep at least one (E-TICK-1)
OVER = 5

PHASE_NAMES = ("choose_tickets", "main", "second_card", "tunnel_payment", "choose_tickets", "game_over")

"""Simulations: many games between bots (`ttr.sim.tournament`)."""

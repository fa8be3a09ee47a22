"""ttr: Ticket to Ride Europe and New York."""

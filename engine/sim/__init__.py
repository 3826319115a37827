"""Seeded runs for any pack: the process pool that plays chunks of games in
order (``pool``) and the per-seat figures of games with rivals
(``seat_figures``)."""

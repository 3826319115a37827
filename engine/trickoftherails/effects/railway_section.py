"""A Railway card that filled a Reservation's slot is a stock-trick prize
when it reaches the front of the lane: a share of its own company."""

from engine.trickoftherails.effects import on
from engine.trickoftherails.rules.events import LANE_CARD_WON
from engine.trickoftherails.rules.stock import stock_trick

on(LANE_CARD_WON, "railway-section")(stock_trick)

"""An Exchange card in the lane makes the trick a stock trick: its winner
takes it as a share of the company printed on it."""

from engine.trickoftherails.effects import on
from engine.trickoftherails.rules.events import LANE_CARD_WON
from engine.trickoftherails.rules.stock import stock_trick

on(LANE_CARD_WON, "share-prize")(stock_trick)

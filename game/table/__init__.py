"""The live table: ``TableRound`` on top of the engine's round (shares, corrections, the cut
card, a void, the pre-checks), the split of a shared box (``shares``), the cut card's window
(``cuts``). Pure: no query, no write."""

"""The table's screens: pure views of a state (``presenters``), the table topic's renderer
(``publish``, named in ``settings.FEED_TOPICS``), the pages (``views``) and the sockets
(``consumers``). The template tags stay in ``game/templatetags/`` (Django looks there)."""

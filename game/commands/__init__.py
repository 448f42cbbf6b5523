"""Commands: a command as a value and its act (``commands``), the commands outside a round
(``table_commands``), every refusal's words (``messages``). Run by
``game.services.command_submit``."""

"""Commands: a command as a value (``commands``: ``ParsedCommand``, ``Outcome``), one form per
command (``forms``, on the one parser), the one dispatch table and the parse of a message
(``dispatch``), the round's commands on the write path (``round_commands``), the commands
outside a round (``table_commands``), every refusal's words (``messages``). Run by
``game.services.command_submit``."""

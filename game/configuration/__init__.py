"""A table's configuration: its rule set and settings (``services.table_configure``, the one
write path), the rule set's fields and words (``rule_fields``), the form and the pit boss's
screen (``forms``, ``views``)."""

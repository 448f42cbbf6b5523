"""The dealer's own figures per dealer and shift (``figures``) and their report (``views``)."""

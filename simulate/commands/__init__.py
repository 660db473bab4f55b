"""One module per ``pokerjit`` command (see :mod:`simulate.cli`)."""

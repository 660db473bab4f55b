"""pokerjit's equity engine: exact enumeration and Monte Carlo, ranges, pots and all-in EV."""

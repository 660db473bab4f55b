"""Hand histories played through: the chip accounting of every variant
(:mod:`~simulate.replay.accounting`), the same hand through the rules engine
(:mod:`~simulate.replay.engine_check`), one hand's document and its all-in EV
(:mod:`~simulate.replay.hand_replay`), many plain hands settled in one compiled call
(:mod:`~simulate.replay.fast_replay`), and files, folders and collections streamed with
per-player totals (:mod:`~simulate.replay.hand_files`). Above the engine; reads the typed
records of :mod:`simulate.notation`."""

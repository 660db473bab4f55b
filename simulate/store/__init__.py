"""The hand database: hand histories imported into one DuckDB file, tracker statistics
over them, and their export as Parquet.

:mod:`simulate.store.schema` (the tables, the file), :mod:`simulate.store.counts` (each
player's position and statistic counts in one hand), :mod:`simulate.store.reading` (a
file's hands with their byte positions), :mod:`simulate.store.rows` (a hand's rows, as
columns), :mod:`simulate.store.chunks` (a chunk of hands made into rows, on a worker),
:mod:`simulate.store.importer` (``pokerjit import``), :mod:`simulate.store.stats`
(``pokerjit stats``), :mod:`simulate.store.export` (``pokerjit export``). DuckDB is
imported only when a database is opened (the ``db`` extra).
"""

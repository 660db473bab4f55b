"""Running work in chunks: in this process, on forked worker processes or on Dask, answers
in input order (:mod:`~simulate.run.executor`), with the workers' output spooled to disk
(:mod:`~simulate.run.spool`). Knows nothing of what a chunk holds: the caller passes the
chunk function and the warm-up."""

from .executor import ChunkInterrupted, Executor, Warm, chunked, executor, parse_scheduler
from .spool import Spool

__all__ = ["ChunkInterrupted", "Executor", "Spool", "Warm", "chunked", "executor",
           "parse_scheduler"]

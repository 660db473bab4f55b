"""Running work in chunks: in this process, on forked worker processes or on Dask, answers
in input order (:mod:`~simulate.run.executor`), with the workers' output spooled to disk
(:mod:`~simulate.run.spool`); Ctrl-C, SIGTERM and SIGHUP stop a run one way
(:mod:`~simulate.run.stop`). Knows nothing of what a chunk holds: the caller passes the
chunk function and the warm-up."""

from .executor import ChunkInterrupted, Executor, Warm, chunked, executor, parse_scheduler
from .spool import Spool
from .stop import Stopped, stop_on_signals, stopped

__all__ = ["ChunkInterrupted", "Executor", "Spool", "Stopped", "Warm", "chunked", "executor",
           "parse_scheduler", "stop_on_signals", "stopped"]

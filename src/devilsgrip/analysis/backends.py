"""Where the work runs: local processes or a Dask cluster.

A backend takes chunks of deals (:class:`~devilsgrip.analysis.work.Task`)
and yields each chunk's results as soon as it is finished, in whatever order
chunks finish.  Leaving the loop early (Ctrl-C, an error) stops the workers:
the deals they were on are simply done again by the next run.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
from collections.abc import Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from devilsgrip import codes
from devilsgrip.analysis.results import AnalysisError, DealResult
from devilsgrip.analysis.work import Task, run_task

BACKENDS = ("local", "dask")


class Backend(Protocol):
    """Runs chunks of deals somewhere; yields each chunk's results when it is done."""

    @property
    def workers(self) -> int: ...

    def run(self, tasks: Sequence[Task]) -> Generator[list[DealResult], None, None]: ...

    def close(self) -> None: ...


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _ignore_sigint() -> None:
    # Ctrl-C is the parent's to handle: it stops the pool in one piece
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalBackend:
    """``jobs`` worker processes on this machine (``jobs=1``: in this process)."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = default_jobs() if jobs is None else jobs
        if self.jobs < 1:
            raise AnalysisError(codes.JOBS_BAD, f"--jobs must be at least 1, not {self.jobs}",
                                jobs=self.jobs)

    @property
    def workers(self) -> int:
        return self.jobs

    def run(self, tasks: Sequence[Task]) -> Generator[list[DealResult], None, None]:
        if not tasks:
            return
        if self.jobs == 1 or len(tasks) == 1:
            for task in tasks:
                yield run_task(task)
            return
        # a fresh interpreter per worker: no threads or locks inherited from the parent
        context = multiprocessing.get_context("forkserver")
        executor = ProcessPoolExecutor(
            max_workers=min(self.jobs, len(tasks)), mp_context=context,
            initializer=_ignore_sigint,
        )
        pending = {executor.submit(run_task, task) for task in tasks}
        finished = False
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
            finished = True
        except BrokenProcessPool as exc:
            raise AnalysisError(
                codes.WORKER_DIED,
                "a worker process died (out of memory?): rerun the same command to resume",
            ) from exc
        finally:
            if not finished:
                # stop at once: the deals in progress are simply done again by the next run
                for future in pending:
                    future.cancel()
                workers = getattr(executor, "_processes", None) or {}
                for process in list(workers.values()):
                    process.terminate()
            executor.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        pass


class DaskBackend:
    """The same work on a Dask cluster: ``scheduler`` is its address (``tcp://HOST:PORT``).

    Without an address a local cluster of ``jobs`` single-threaded worker
    processes is started for the run.
    """

    def __init__(self, scheduler: str | None = None, jobs: int | None = None) -> None:
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError as exc:
            raise AnalysisError(
                codes.DASK_UNAVAILABLE,
                "the Dask backend needs dask.distributed: pip install 'devilsgrip[cluster]'",
            ) from exc
        self._cluster: Any = None
        try:
            if scheduler:
                self._client: Any = distributed.Client(scheduler, timeout="20s")
            else:
                self._cluster = distributed.LocalCluster(
                    n_workers=jobs or default_jobs(), threads_per_worker=1,
                    processes=True, dashboard_address=None,
                )
                self._client = distributed.Client(self._cluster)
        except (OSError, ValueError) as exc:  # ValueError: an address that is none
            if self._cluster is not None:
                self._cluster.close()
            raise AnalysisError(
                codes.DASK_UNREACHABLE, f"cannot reach the Dask scheduler {scheduler}: {exc}",
                scheduler=scheduler or "", reason=str(exc),
            ) from exc

    @property
    def workers(self) -> int:
        threads = self._client.nthreads()
        return max(1, sum(int(n) for n in threads.values()))

    def run(self, tasks: Sequence[Task]) -> Generator[list[DealResult], None, None]:
        if not tasks:
            return
        as_completed: Any = importlib.import_module("distributed").as_completed
        futures = self._client.map(run_task, list(tasks), pure=False)
        try:
            for future in as_completed(futures):
                result: list[DealResult] = future.result()
                yield result
        finally:
            self._client.cancel(futures)

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_backend(name: str, *, jobs: int | None = None, scheduler: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``dask``)."""
    if name == "local":
        if scheduler:
            raise AnalysisError(
                codes.SCHEDULER_NEEDS_DASK, "--scheduler needs --backend dask"
            )
        return LocalBackend(jobs)
    if name == "dask":
        return DaskBackend(scheduler, jobs)
    raise AnalysisError(
        codes.BACKEND_UNKNOWN, f"unknown backend '{name}' (choose from {', '.join(BACKENDS)})",
        backend=name, backends=", ".join(BACKENDS),
    )

"""Simulations on a Dask distributed cluster (`dominion simulate --cluster ADDRESS`, or
``simulate(..., executor=distributed.Client(ADDRESS))``). Optional: ``pip install
'dominion-engine[cluster]'``.

On several machines: start a scheduler on one (``dask scheduler``, port 8786), a worker on each
(``dask worker tcp://SCHEDULER:8786``), each with this package installed at the same version,
then run ``dominion simulate --cluster tcp://SCHEDULER:8786 ...`` from any machine that reaches
the scheduler. The games are the same as on one machine: game ``i`` depends only on the seed and
``i``.
"""
from __future__ import annotations


def connect_cluster(address: str, timeout: float = 10.0):
    """A Dask client for the scheduler at ``address`` (closed by ``with``); ImportError naming
    the extra when Dask is missing, OSError when no scheduler answers."""
    try:
        from distributed import Client
    except ImportError:
        raise ImportError("--cluster needs Dask: pip install 'dominion-engine[cluster]'") \
            from None
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise OSError(f"no Dask scheduler answers at {address}: {exc}") from None

"""Every card of the engine, one module per set. Importing this package fills the registries
of ``dominion.card``."""
from . import basic, base, intrigue  # noqa: F401  (imported for their definitions)

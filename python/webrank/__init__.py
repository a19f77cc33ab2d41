"""webrank from Python (docs/python.md).

Drop-in PageRank for NetworkX, SciPy and igraph users::

    import webrank
    pr = webrank.pagerank(G)               # instead of networkx.pagerank(G): same dict
    x = webrank.pagerank_scipy(A)          # a SciPy matrix, (src, dst[, w]) arrays, igraph

and webrank's link databases: webrank.Database(path), webrank.build(...), webrank.crawl(...).
Database's methods are the `webrank` commands that work on a database (rank, top, search,
trust, explain, ...), with the same options and the same JSON (docs/python.md).
Every error is a webrank.Error subclass, one per kind. webrank.__version__ is the project's
version (project() in CMakeLists.txt, written into the package when it is built).
"""
import os as _os

# OpenMP threads that wait at a barrier spin before sleeping; on a shared machine long spins
# steal the core a late thread needs. The webrank command runs with GOMP_SPINCOUNT=10000 (README,
# Benchmarks); libgomp reads it when it is loaded, which importing _core does, so it is set here,
# unless the user chose a policy (OMP_WAIT_POLICY or GOMP_SPINCOUNT); it has no effect when
# something else loaded libgomp before webrank.
if "OMP_WAIT_POLICY" not in _os.environ and "GOMP_SPINCOUNT" not in _os.environ:
    _os.environ["GOMP_SPINCOUNT"] = "10000"

from ._version import __version__  # noqa: E402, F401 (public: webrank.__version__)
from ._graph import Graph, rank  # noqa: E402
from ._database import Database, build, crawl, generate, import_graph  # noqa: E402
from ._dropin import pagerank, pagerank_numpy, pagerank_scipy  # noqa: E402
from ._errors import (  # noqa: E402
    CancelledError,
    ConflictError,
    ConvergenceWarning,
    CorruptError,
    Error,
    ExistsError,
    InternalError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidInputError,
    IoError,
    NotFoundError,
    PageIdError,
    PowerIterationFailedConvergence,
    ZeroSumError,
)

__all__ = [
    "pagerank", "pagerank_scipy", "pagerank_numpy", "Database", "build", "import_graph", "crawl",
    "generate", "Graph", "rank", "Error", "InvalidArgumentError", "InvalidTypeError",
    "InvalidInputError", "NotFoundError", "ExistsError", "CorruptError",
    "IoError", "CancelledError", "ConflictError", "InternalError", "PageIdError", "ZeroSumError",
    "ConvergenceWarning", "PowerIterationFailedConvergence",
]

"""Webs held in memory, not in a database: webrank.Graph and webrank.rank(graph) (docs/python.md).
Their arguments are checked here (_arguments.py) before the extension sees them; rank's options
are `rank`'s declarations, those that need no database."""
import inspect

from . import _arguments, _core, _operations
from ._errors import InvalidArgumentError, InvalidTypeError

__all__ = ["Graph", "rank"]


def _pages(value, field="pages"):
    n = _arguments.whole(value, field, "a whole number of pages >= 0")
    if not isinstance(n, int) or n < 0:
        raise _arguments.fail(InvalidArgumentError, field, "must be a whole number of pages >= 0, "
                              "got %r" % value)
    return n


class Graph:
    """A web held in memory (identical links merged, their weights added). Made by
    Graph.from_arrays, Graph.from_csr (and, for NetworkX graphs, by webrank.pagerank); ranked by
    webrank.rank(graph, **options), as often as wanted."""

    __slots__ = ("_graph",)

    def __init__(self, graph):
        if not isinstance(graph, _core.Graph):
            raise _arguments.fail(InvalidTypeError, "graph", "is made by Graph.from_arrays or "
                                  "Graph.from_csr, got %s" % _arguments.shown(graph))
        self._graph = graph

    @property
    def pages(self):
        return self._graph.pages

    @property
    def links(self):
        return self._graph.links

    @property
    def weighted(self):
        return self._graph.weighted

    def __repr__(self):
        return "webrank.Graph(%d pages, %d links%s)" % (self.pages, self.links,
                                                         ", weighted" if self.weighted else "")

    @staticmethod
    def from_arrays(pages, src, dst, weight=None):
        """Link k goes from page src[k] to page dst[k] (weight[k], default 1); pages are
        0 .. pages-1. Page ids are whole numbers: ints, or floats with whole values (a
        fractional or NaN id is refused with its position, not truncated)."""
        pages = _pages(pages)
        src = _arguments.page_ids(src, "src")
        dst = _arguments.page_ids(dst, "dst")
        if weight is not None:
            weight = _arguments.numbers_array(weight, "weight", one_dimensional=True)
        return Graph(_core.Graph.from_arrays(pages, src, dst, weight))

    @staticmethod
    def from_csr(pages, indptr, indices, data):
        """A square CSR matrix: row i holds the links out of page i (A[i, j] = weight of the
        link i -> j, as nx.to_scipy_sparse_array and SciPy's csr_array have it)."""
        pages = _pages(pages)
        indptr = _arguments.page_ids(indptr, "indptr")
        indices = _arguments.page_ids(indices, "indices")
        data = _arguments.numbers_array(data, "data", one_dimensional=True)
        return Graph(_core.Graph.from_csr(pages, indptr, indices, data))

    @staticmethod
    def from_adjacency(adj, index, weight, multigraph):
        """NetworkX's G._adj ({u: {v: attrs}}, {u: {v: {key: attrs}}} for multigraphs), `index`
        mapping nodes to their positions, `weight` the attribute holding weights (None: 1)."""
        if not isinstance(adj, dict) or not isinstance(index, dict):
            raise _arguments.fail(InvalidTypeError, "G", "must be a NetworkX graph (its adjacency "
                                  "a dict of dicts), got %s" % _arguments.shown(adj))
        if weight is not None:
            try:
                hash(weight)
            except TypeError:
                raise _arguments.fail(InvalidTypeError, "weight", "must name an edge attribute (a "
                                      "hashable key) or be None, got %s"
                                      % _arguments.shown(weight)) from None
        return Graph(_core.Graph.from_adjacency(adj, index, weight,
                                                _arguments.flag(multigraph, "multigraph")))


# rank's options that need no database, and the run's (threads): the keywords of rank(graph).
_RANK_SPECS = _core._graph_rank_options()


def rank(graph, *, callback=None, **options):
    """PageRank of a web held in memory: rank(graph, **options) -> (ranks, info), ranks a float64
    array by page, info the result as a dict ("iterations", "converged", "final_delta", ...).
    The options are Database.rank's that need no database (its declarations: damping, tol,
    max_iter, dangling, method, precision, sweep, block_pages, threads; source, start and
    dangling_weights as one value per page); callback(iteration, delta) is called after every
    iteration."""
    if not isinstance(graph, Graph):
        raise _arguments.fail(InvalidTypeError, "graph", "must be a webrank.Graph "
                              "(Graph.from_arrays, Graph.from_csr), got %s"
                              % _arguments.shown(graph))
    _arguments.callback(callback)
    options = _arguments.options(_RANK_SPECS, options, "rank()")
    return _core.rank(graph._graph, options, callback)


_operations.declare(rank, [inspect.Parameter("graph", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                             annotation="Graph")]
                    + _operations.keywords(_RANK_SPECS),
                    "Tuple[npt.NDArray[np.float64], dict[str, Any]]", on_database=False)


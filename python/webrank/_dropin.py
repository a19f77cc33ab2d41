"""Drop-in PageRank for NetworkX, SciPy and igraph users (docs/python.md).

``pagerank`` has nx.pagerank's signature and semantics: the same power iteration, stopped by
NetworkX's rule (the L1 change below ``len(G) * tol``), its conventions for undirected graphs
(each edge both ways, a self-loop once) and multigraphs (parallel edges' weights added), the
same handling of personalization, nstart, dangling and weight, the same return type, and
``PowerIterationFailedConvergence`` when max_iter iterations do not get there.
"""
import itertools
import math
from collections.abc import Mapping

import numpy as np

from . import _arguments
from ._errors import (InvalidArgumentError, InvalidTypeError, PowerIterationFailedConvergence,
                      ZeroSumError)
from ._graph import _RANK_SPECS, Graph, rank

__all__ = ["pagerank", "pagerank_scipy", "pagerank_numpy"]


def _is_networkx(G):
    return hasattr(G, "_adj") and hasattr(G, "is_multigraph") and hasattr(G, "is_directed")


def _is_igraph(G):
    return type(G).__module__.startswith("igraph") and hasattr(G, "get_edgelist")


def _inputs(alpha, max_iter, tol, weight, abs_tol, method, precision, threads, pages=None):
    """The drop-ins' own arguments, checked in one place (the graph's, and the per-node values,
    as they are read): NetworkX's alpha, max_iter, tol and weight, and webrank's keyword-only
    options, those of `rank` by its declarations (_arguments.options). Returns them as the
    solve takes them."""
    alpha = _arguments.number(alpha, "alpha")
    if not 0 <= alpha <= 1:
        raise _arguments.fail(InvalidArgumentError, "alpha", "must be in [0, 1], got %r" % alpha)
    max_iter = _arguments.whole(max_iter, "max_iter")
    if not isinstance(max_iter, int):
        raise _arguments.fail(InvalidArgumentError, "max_iter", "must be a whole number, got %r"
                              % max_iter)
    tol = _arguments.number(tol, "tol")
    if math.isnan(tol):
        raise _arguments.fail(InvalidArgumentError, "tol", "must be a number, got nan")
    if abs_tol is not None:
        abs_tol = _arguments.number(abs_tol, "abs_tol")
        if not (abs_tol > 0 and math.isfinite(abs_tol)):
            raise _arguments.fail(InvalidArgumentError, "abs_tol", "must be a finite number > 0, "
                                  "got %r" % abs_tol)
    if weight is not None:
        try:
            hash(weight)
        except TypeError:
            raise _arguments.fail(InvalidTypeError, "weight", "must name an edge attribute or be "
                                  "None, got %s" % _arguments.shown(weight)) from None
    if pages is not None:
        pages = _arguments.whole(pages, "pages")
        if not isinstance(pages, int) or pages < 0:
            raise _arguments.fail(InvalidArgumentError, "pages", "must be a whole number >= 0, "
                                  "got %r" % pages)
    options = _arguments.options(
        _RANK_SPECS, {"method": method, "precision": precision, "threads": threads}, "pagerank()")
    return alpha, max_iter, tol, weight, abs_tol, options, pages


def _from_networkx(G, weight):
    nodelist = list(G)
    index = dict(zip(nodelist, range(len(nodelist))))
    multigraph = G.is_multigraph()
    adj = G._adj
    if type(adj) is dict:
        try:
            return nodelist, index, Graph.from_adjacency(adj, index, weight, multigraph)
        except InvalidTypeError as e:
            if e.field != "G":
                raise
            # a view whose inner mappings are not dicts: copied first
    if multigraph:
        adj = {u: {v: {k: dict(a) for k, a in keys.items()} for v, keys in nbrs.items()}
               for u, nbrs in G.adjacency()}
    else:
        adj = {u: {v: dict(a) for v, a in nbrs.items()} for u, nbrs in G.adjacency()}
    return nodelist, index, Graph.from_adjacency(adj, index, weight, multigraph)


def _from_igraph(g, weight):
    n = g.vcount()
    m = g.ecount()
    edges = np.fromiter(itertools.chain.from_iterable(g.get_edgelist()), dtype=np.int64,
                        count=2 * m).reshape(m, 2)
    src, dst = edges[:, 0], edges[:, 1]
    w = None
    if weight is not None and weight in g.es.attributes():
        w = _arguments.numbers_array(g.es[weight], "weight", "numbers (edge weights)")
    if not g.is_directed():  # both ways, a self-loop once (NetworkX's convention)
        back = src != dst
        src, dst = np.concatenate([src, dst[back]]), np.concatenate([dst, src[back]])
        if w is not None:
            w = np.concatenate([w, w[back]])
    names = g.vs["name"] if "name" in g.vs.attributes() else list(range(n))
    index = dict(zip(names, range(n)))
    return names, index, Graph.from_arrays(n, src, dst, w)


def _from_arrays(edges, pages):
    if len(edges) not in (2, 3):
        raise _arguments.fail(InvalidArgumentError, "A", "as a tuple must be (src, dst) or (src, "
                              "dst, weight) arrays, got %d items" % len(edges))
    src = _arguments.page_ids(edges[0], "A", "A[0] (the sources)")
    dst = _arguments.page_ids(edges[1], "A", "A[1] (the targets)")
    w = None if len(edges) == 2 or edges[2] is None else edges[2]
    if pages is None:
        pages = max(0, int(max(src.max(initial=-1), dst.max(initial=-1))) + 1)
    return Graph.from_arrays(pages, src, dst, w)


def _from_matrix(A):
    import scipy.sparse

    if not scipy.sparse.issparse(A):
        if isinstance(A, (str, bytes, Mapping)) or A is None:
            raise _arguments.fail(InvalidTypeError, "A", _WHAT_A + ", got %s"
                                  % _arguments.shown(A))
        A = _arguments.numbers_array(A, "A", "numbers (a matrix)")
        if A.ndim != 2:
            raise _arguments.fail(InvalidArgumentError, "A", "must be a square matrix, got shape "
                                  "%s" % (A.shape,))
    elif A.dtype.kind not in "fiub":
        raise _arguments.fail(InvalidTypeError, "A", "must hold numbers, got a matrix of dtype "
                              "%s" % A.dtype)
    A = scipy.sparse.csr_array(A)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise _arguments.fail(InvalidArgumentError, "A", "must be a square matrix, got shape %s"
                              % (A.shape,))
    A.sum_duplicates()
    return Graph.from_csr(A.shape[0], A.indptr, A.indices, A.data)


_WHAT_A = ("must be a SciPy sparse matrix, a square 2-d array, (src, dst[, weight]) arrays, a "
           "NetworkX graph or an igraph Graph")


def _dense(values, n, index, what):
    """A dict (node -> value; nodes not in the graph ignored, as NetworkX does) or a sequence of
    n values -> a float64 array of n values."""
    if values is None:
        return None
    if isinstance(values, Mapping):
        x = np.zeros(n)
        for k, v in values.items():
            v = _arguments.number(v, what, "(the value of %r)" % (k,))
            if index is not None:
                try:
                    i = index.get(k)
                except TypeError:  # unhashable: no node
                    i = None
            else:
                i = int(k) if _arguments.is_integer(k) and 0 <= k < n else None
            if i is not None:
                x[i] = v
        return x
    x = _arguments.numbers_array(values, what)
    if x.shape != (n,):
        raise _arguments.fail(InvalidArgumentError, what, "must be a dict or %d values, got shape "
                              "%s" % (n, x.shape))
    return x


def _solve(graph, n, index, inputs, personalization, nstart, dangling):
    """NetworkX's stopping rule over webrank's solvers; the ranks as a float64 array."""
    alpha, max_iter, tol, _, abs_tol, options, _ = inputs
    p = _dense(personalization, n, index, "personalization")
    if p is not None and p.sum() == 0:
        raise _arguments.fail(ZeroSumError, "personalization", "sums to 0 (at least one value "
                              "must be non-zero)")
    x0 = _dense(nstart, n, index, "nstart")
    if x0 is not None and x0.sum() == 0:
        raise _arguments.fail(ZeroSumError, "nstart", "sums to 0")
    d = _dense(dangling, n, index, "dangling")
    if d is not None and d.sum() == 0:
        raise _arguments.fail(ZeroSumError, "dangling", "sums to 0")
    if abs_tol is not None:
        threshold = abs_tol
    else:
        # NetworkX stops when err < N * tol: the largest double below it, with webrank's <=.
        threshold = math.nextafter(n * tol, 0) if n * tol > 0 else -1.0
    if max_iter < 1 or threshold < 0:
        raise PowerIterationFailedConvergence(max_iter)
    ranks, info = rank(graph, damping=alpha, tol=threshold, max_iter=max_iter, source=p,
                       start=x0, dangling_weights=d, **options)
    if not info["converged"]:
        raise PowerIterationFailedConvergence(max_iter)
    return ranks


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None,
             weight="weight", dangling=None, *, abs_tol=None, method="power",
             precision="double", threads=0):
    """Returns the PageRank of the nodes of G as a dict {node: rank}: networkx.pagerank, computed
    by webrank.

    G is a NetworkX graph (Graph, DiGraph, MultiGraph, MultiDiGraph, or a view of one) or an
    igraph Graph (keyed by its vertices' "name" attribute if they have one, else by index).
    The arguments are NetworkX's: alpha the damping factor; personalization, nstart and dangling
    dicts of node -> value (normalized; missing nodes count 0, unknown ones are ignored); weight
    the edge attribute holding weights (None: every edge weighs 1; parallel edges of a
    multigraph add up). Iteration stops when the L1 change is below len(G) * tol, as in
    NetworkX; after max_iter iterations without that, PowerIterationFailedConvergence is raised.

    webrank's own options (keyword-only): abs_tol, an absolute L1 tolerance used instead of
    len(G) * tol; method "power" (the default: NetworkX's iteration), "gauss-seidel",
    "extrapolate", "direct" or "auto" (the fastest for the graph); precision "double" or
    "float"; threads (0 = all cores).

    Raises webrank.ZeroSumError (a ZeroDivisionError, as NetworkX's) when personalization (also
    nstart or dangling) sums to 0, webrank.InvalidArgumentError (a ValueError) for negative or
    non-finite values or weights, webrank.InvalidTypeError (a TypeError) for a value of the wrong
    type; every error is a webrank.Error.
    """
    inputs = _inputs(alpha, max_iter, tol, weight, abs_tol, method, precision, threads)
    if _is_igraph(G):
        nodelist, index, graph = _from_igraph(G, weight)
    elif _is_networkx(G):
        if len(G) == 0:
            return {}
        nodelist, index, graph = _from_networkx(G, weight)
    else:
        raise _arguments.fail(InvalidTypeError, "G", "must be a NetworkX graph or an igraph "
                              "Graph, got %s" % _arguments.shown(G))
    n = len(nodelist)
    if n == 0:
        return {}
    x = _solve(graph, n, index, inputs, personalization, nstart, dangling)
    return dict(zip(nodelist, x.tolist()))


def pagerank_scipy(A, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None,
                   weight="weight", dangling=None, *, pages=None, abs_tol=None, method="power",
                   precision="double", threads=0):
    """PageRank of a matrix, of edge arrays or of an igraph Graph, as a NumPy array (a NetworkX
    graph gives a dict, as networkx.pagerank_scipy does).

    A is one of:
      * a SciPy sparse matrix or array (or a dense 2-d array), square: A[i, j] is the weight of
        the link i -> j (as nx.to_scipy_sparse_array builds it); entries add up when repeated;
      * a tuple (src, dst) or (src, dst, weight) of arrays: link k goes from page src[k] to page
        dst[k]; pages are 0 .. pages-1 (default: the largest id + 1);
      * an igraph Graph (weight names the edge attribute holding weights, if it has one);
      * a NetworkX graph: the same as webrank.pagerank.
    personalization, nstart and dangling are arrays of one value per page, or dicts
    {page index: value}. Everything else is as for webrank.pagerank, whose stopping rule (L1
    change below N * tol) and PowerIterationFailedConvergence apply.

    Returns a float64 array of the N ranks, by page index.
    """
    if _is_networkx(A):
        return pagerank(A, alpha, personalization, max_iter, tol, nstart, weight, dangling,
                        abs_tol=abs_tol, method=method, precision=precision, threads=threads)
    inputs = _inputs(alpha, max_iter, tol, weight, abs_tol, method, precision, threads, pages)
    if _is_igraph(A):
        _, _, graph = _from_igraph(A, weight)
    elif isinstance(A, tuple):
        graph = _from_arrays(A, inputs[-1])
    else:
        graph = _from_matrix(A)
    n = graph.pages
    if n == 0:
        return np.zeros(0)
    return _solve(graph, n, None, inputs, personalization, nstart, dangling)


def pagerank_numpy(G, alpha=0.85, personalization=None, weight="weight", dangling=None):
    """networkx.pagerank_numpy (NetworkX 2.x): the exact PageRank of a small graph as a dict,
    here from webrank's direct solve (a sparse LU factorization of I - alpha*M, at most 5,000
    nodes) instead of a dense eigenvector."""
    return pagerank(G, alpha, personalization, weight=weight, dangling=dangling, method="direct",
                    abs_tol=1.0)

"""Drop-in PageRank for NetworkX, SciPy and igraph users (docs/python.md).

``pagerank`` has nx.pagerank's signature and semantics: the same power iteration, stopped by
NetworkX's rule (the L1 change below ``len(G) * tol``), its conventions for undirected graphs
(each edge both ways, a self-loop once) and multigraphs (parallel edges' weights added), the
same handling of personalization, nstart, dangling and weight, the same return type, and
``PowerIterationFailedConvergence`` when max_iter iterations do not get there.
"""
import itertools
import math

import numpy as np

from . import _core
from ._errors import PowerIterationFailedConvergence

__all__ = ["pagerank", "pagerank_scipy", "pagerank_numpy"]


def _is_networkx(G):
    return hasattr(G, "_adj") and hasattr(G, "is_multigraph") and hasattr(G, "is_directed")


def _is_igraph(G):
    return type(G).__module__.startswith("igraph") and hasattr(G, "get_edgelist")


def _from_networkx(G, weight):
    nodelist = list(G)
    index = dict(zip(nodelist, range(len(nodelist))))
    multigraph = G.is_multigraph()
    adj = G._adj
    if type(adj) is dict:
        try:
            return nodelist, index, _core.Graph.from_adjacency(adj, index, weight, multigraph)
        except TypeError:
            pass  # a view whose inner mappings are not dicts: copy them first
    if multigraph:
        adj = {u: {v: {k: dict(a) for k, a in keys.items()} for v, keys in nbrs.items()}
               for u, nbrs in G.adjacency()}
    else:
        adj = {u: {v: dict(a) for v, a in nbrs.items()} for u, nbrs in G.adjacency()}
    return nodelist, index, _core.Graph.from_adjacency(adj, index, weight, multigraph)


def _from_igraph(g, weight):
    n = g.vcount()
    m = g.ecount()
    edges = np.fromiter(itertools.chain.from_iterable(g.get_edgelist()), dtype=np.int64,
                        count=2 * m).reshape(m, 2)
    src, dst = edges[:, 0], edges[:, 1]
    w = None
    if weight is not None and weight in g.es.attributes():
        w = np.asarray(g.es[weight], dtype=float)
    if not g.is_directed():  # both ways, a self-loop once (NetworkX's convention)
        back = src != dst
        src, dst = np.concatenate([src, dst[back]]), np.concatenate([dst, src[back]])
        if w is not None:
            w = np.concatenate([w, w[back]])
    names = g.vs["name"] if "name" in g.vs.attributes() else list(range(n))
    index = dict(zip(names, range(n)))
    return names, index, _core.Graph.from_arrays(n, src, dst, w)


def _from_arrays(edges, pages):
    if len(edges) not in (2, 3):
        raise ValueError("edges must be (src, dst) or (src, dst, weight) arrays")
    src = np.asarray(edges[0], dtype=np.int64)
    dst = np.asarray(edges[1], dtype=np.int64)
    w = None if len(edges) == 2 or edges[2] is None else np.asarray(edges[2], dtype=float)
    if pages is None:
        pages = int(max(src.max(initial=-1), dst.max(initial=-1))) + 1
    return _core.Graph.from_arrays(pages, src, dst, w)


def _from_matrix(A):
    import scipy.sparse

    A = scipy.sparse.csr_array(A)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("the matrix must be square, got shape %s" % (A.shape,))
    A.sum_duplicates()
    return _core.Graph.from_csr(A.shape[0], A.indptr, A.indices, A.data)


def _dense(values, n, index, what):
    """A dict (node -> value; nodes not in the graph ignored, as NetworkX does) or a sequence of
    n values -> a float64 array of n values."""
    if values is None:
        return None
    if isinstance(values, dict):
        x = np.zeros(n)
        for k, v in values.items():
            i = index.get(k) if index is not None else (k if isinstance(k, (int, np.integer)) and 0 <= k < n else None)
            if i is not None:
                x[i] = v
    else:
        x = np.array(values, dtype=float)
        if x.shape != (n,):
            raise ValueError("%s must be a dict or %d values, got shape %s" % (what, n, x.shape))
    return x


def _solve(graph, n, index, alpha, personalization, max_iter, tol, nstart, dangling, abs_tol,
           method, precision, threads):
    """NetworkX's stopping rule over webrank's solvers; the ranks as a float64 array."""
    p = _dense(personalization, n, index, "personalization")
    if p is not None and p.sum() == 0:
        raise ZeroDivisionError("personalization sums to 0 (at least one value must be non-zero)")
    x0 = _dense(nstart, n, index, "nstart")
    if x0 is not None and x0.sum() == 0:
        raise ZeroDivisionError("nstart sums to 0")
    d = _dense(dangling, n, index, "dangling")
    if d is not None and d.sum() == 0:
        raise ZeroDivisionError("dangling sums to 0")
    if abs_tol is not None:
        threshold = float(abs_tol)
    else:
        # NetworkX stops when err < N * tol: the largest double below it, with webrank's <=.
        threshold = math.nextafter(n * tol, 0) if n * tol > 0 else -1.0
    if max_iter < 1 or threshold < 0:
        raise PowerIterationFailedConvergence(max_iter)
    ranks, info = _core.rank(graph, damping=alpha, tol=threshold, max_iter=max_iter,
                             source=p, start=x0, dangling_weights=d, method=method,
                             precision=precision, threads=threads)
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

    Raises ZeroDivisionError when personalization (also nstart or dangling) sums to 0, and
    webrank.InvalidArgumentError (a ValueError) for negative or non-finite values or weights.
    """
    if _is_igraph(G):
        nodelist, index, graph = _from_igraph(G, weight)
    else:
        if len(G) == 0:
            return {}
        nodelist, index, graph = _from_networkx(G, weight)
    n = len(nodelist)
    if n == 0:
        return {}
    x = _solve(graph, n, index, alpha, personalization, max_iter, tol, nstart, dangling,
               abs_tol, method, precision, threads)
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
    index = None
    if _is_igraph(A):
        _, _, graph = _from_igraph(A, weight)
    elif isinstance(A, tuple):
        graph = _from_arrays(A, pages)
    else:
        graph = _from_matrix(A)
    n = graph.pages
    if n == 0:
        return np.zeros(0)
    return _solve(graph, n, index, alpha, personalization, max_iter, tol, nstart, dangling,
                  abs_tol, method, precision, threads)


def pagerank_numpy(G, alpha=0.85, personalization=None, weight="weight", dangling=None):
    """networkx.pagerank_numpy (NetworkX 2.x): the exact PageRank of a small graph as a dict,
    here from webrank's direct solve (a sparse LU factorization of I - alpha*M, at most 5,000
    nodes) instead of a dense eigenvector."""
    return pagerank(G, alpha, personalization, weight=weight, dangling=dangling, method="direct",
                    abs_tol=1.0)

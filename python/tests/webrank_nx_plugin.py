"""A pytest plugin that makes NetworkX's PageRank functions webrank's, before NetworkX's own
test module is imported (run_networkx_tests.py loads it with -p). Each replacement counts its
calls, so the runner can check that the tests really ran webrank."""
import networkx as nx
import networkx.algorithms.link_analysis.pagerank_alg as alg

import webrank

CALLS = {}


def _counted(name, fn):
    def wrapper(*args, **kwargs):
        CALLS[name] = CALLS.get(name, 0) + 1
        return fn(*args, **kwargs)

    wrapper.__name__ = fn.__name__
    wrapper.__wrapped__ = fn
    return wrapper


REPLACED = {
    "pagerank": webrank.pagerank,
    "_pagerank_python": webrank.pagerank,  # NetworkX's pure-Python loop: the same semantics
    "pagerank_scipy": webrank.pagerank_scipy,
    "pagerank_numpy": webrank.pagerank_numpy,
}
for _name, _fn in REPLACED.items():
    _wrapped = _counted(_name, _fn)
    setattr(alg, _name, _wrapped)
    if hasattr(nx, _name):
        setattr(nx, _name, _wrapped)

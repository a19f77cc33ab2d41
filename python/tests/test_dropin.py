#!/usr/bin/python3
"""webrank.pagerank and pagerank_scipy as drop-ins (docs/python.md): on random graphs
of every NetworkX kind (directed, undirected, multigraphs; weights, zero weights, self-loops,
isolated and dangling nodes; personalization, dangling dicts, nstart), webrank's results equal
nx.pagerank's at NetworkX's own stopping rule and igraph's PRPACK at a tight tolerance, to 1e-9
in L1; the conventions and exceptions are NetworkX's.

Run:  build/venv/bin/python python/tests/test_dropin.py [-v]
"""
import random
import unittest
import warnings

import igraph
import networkx as nx
import numpy as np
import scipy.sparse

import webrank

warnings.simplefilter("ignore", DeprecationWarning)  # NetworkX 2.8 on SciPy's matrices


def l1(a, b):
    assert set(a) == set(b)
    return sum(abs(a[k] - b[k]) for k in a)


def random_graph(seed, kind=nx.DiGraph, n=120, m=600, weighted=False, labels="int"):
    rnd = random.Random(seed)
    G = kind()
    name = {"int": lambda i: i, "str": lambda i: "p%d" % i,
            "mixed": lambda i: i if i % 2 else "n%d" % i}[labels]
    G.add_nodes_from(name(i) for i in range(n))  # the last ones stay isolated
    for _ in range(m):
        u = min(rnd.randrange(n - 5), rnd.randrange(n - 5))  # skewed: hubs and dangling nodes
        v = rnd.randrange(n - 5) if rnd.random() < 0.9 else u  # some self-loops
        if weighted:
            G.add_edge(name(u), name(v), weight=rnd.choice([0.5, 1, 2, 3.5, 0]))
        else:
            G.add_edge(name(u), name(v))
    return G


KINDS = [nx.DiGraph, nx.Graph, nx.MultiDiGraph, nx.MultiGraph]


class AgainstNetworkX(unittest.TestCase):
    """Same iteration, same stopping rule: the vectors agree to rounding."""

    def check(self, G, **kw):
        ours = webrank.pagerank(G, **kw)
        theirs = nx.pagerank(G, **kw)
        self.assertEqual(list(ours), list(theirs))  # same keys, same order
        self.assertLess(l1(ours, theirs), 1e-9, kw)
        return ours

    def test_kinds_weights_labels(self):
        for seed, kind in enumerate(KINDS):
            for weighted in (False, True):
                for labels in ("int", "str", "mixed"):
                    with self.subTest(kind=kind.__name__, weighted=weighted, labels=labels):
                        G = random_graph(seed, kind, weighted=weighted, labels=labels)
                        self.check(G)
                        self.check(G, weight=None)
                        self.check(G, alpha=0.5, tol=1e-9)

    def test_personalization_dangling_nstart(self):
        for seed, kind in enumerate(KINDS):
            G = random_graph(10 + seed, kind, weighted=True)
            rnd = random.Random(seed)
            nodes = list(G)
            pers = {v: rnd.random() for v in rnd.sample(nodes, 20)}
            pers["not a node"] = 5.0  # ignored, as NetworkX ignores it
            dang = {v: rnd.choice([1, 2, 0]) + 0.5 for v in rnd.sample(nodes, 10)}
            start = {v: rnd.random() for v in nodes}
            with self.subTest(kind=kind.__name__):
                self.check(G, personalization=pers)
                self.check(G, dangling=dang)
                self.check(G, personalization=pers, dangling=dang, nstart=start, alpha=0.9)
                self.check(G, nstart=start, tol=1e-10, max_iter=500)

    def test_subgraph_views(self):
        G = random_graph(3, nx.MultiDiGraph, weighted=True)
        view = G.subgraph(list(G)[:80])
        self.check(view)
        self.check(nx.reverse_view(G))

    def test_power_iteration_failed_convergence(self):
        G = random_graph(4)
        for kw in ({"max_iter": 3}, {"max_iter": 0}, {"tol": 0}, {"max_iter": -1}):
            with self.assertRaises(nx.PowerIterationFailedConvergence) as ours:
                webrank.pagerank(G, **kw)
            with self.assertRaises(nx.PowerIterationFailedConvergence):
                nx.pagerank(G, **kw)
            # NetworkX's class, and a webrank.Error as every error of the module
            self.assertTrue(issubclass(webrank.PowerIterationFailedConvergence,
                                       nx.PowerIterationFailedConvergence))
            self.assertIsInstance(ours.exception, webrank.PowerIterationFailedConvergence)
            self.assertIsInstance(ours.exception, webrank.Error)
            self.assertIsInstance(ours.exception, nx.ExceededMaxIterations)

    def test_zero_personalization(self):
        G = random_graph(5)
        with self.assertRaises(ZeroDivisionError):
            webrank.pagerank(G, personalization={0: 0, 1: 0})
        with self.assertRaises(webrank.ZeroSumError) as e:
            webrank.pagerank(G, personalization={"absent": 1})
        self.assertEqual(e.exception.field, "personalization")

    def test_empty_and_tiny(self):
        self.assertEqual(webrank.pagerank(nx.Graph()), {})
        self.assertEqual(webrank.pagerank(nx.DiGraph()), {})
        G = nx.DiGraph()
        G.add_node("alone")
        self.assertEqual(webrank.pagerank(G), {"alone": 1.0})

    def test_bad_weights(self):
        G = nx.DiGraph([(0, 1, {"weight": -1}), (1, 0)])
        with self.assertRaises(ValueError) as e:
            webrank.pagerank(G)
        self.assertIsInstance(e.exception, webrank.InvalidArgumentError)
        self.assertIn("weight", str(e.exception))


class AgainstIgraph(unittest.TestCase):
    """igraph's PRPACK solves exactly; webrank with an absolute tolerance matches it."""

    def test_random_graphs(self):
        for seed in range(6):
            G = random_graph(20 + seed, nx.DiGraph, weighted=seed % 2 == 1)
            g = igraph.Graph.from_networkx(G)
            ref = g.pagerank(weights="weight" if seed % 2 else None, implementation="prpack")
            ours = webrank.pagerank_scipy(g, abs_tol=1e-13, max_iter=1000)
            self.assertLess(float(np.abs(ours - np.array(ref)).sum()), 1e-9)
            # through the dict interface: keyed by vertex index (no "name" attribute), or name
            d = webrank.pagerank(g, abs_tol=1e-13, max_iter=1000)
            self.assertLess(sum(abs(d[v.index] - ref[v.index]) for v in g.vs), 1e-9)
            g.vs["name"] = ["v%d" % i for i in range(g.vcount())]
            d = webrank.pagerank(g, abs_tol=1e-13, max_iter=1000)
            self.assertLess(sum(abs(d["v%d" % i] - ref[i]) for i in range(g.vcount())), 1e-9)

    def test_personalized_and_undirected(self):
        for seed in range(3):
            G = random_graph(30 + seed, nx.Graph)
            # igraph counts an undirected self-loop twice, NetworkX (and webrank) once
            with_loops = igraph.Graph.from_networkx(G)
            self.assertLess(float(np.abs(webrank.pagerank_scipy(with_loops, tol=1e-12) - np.array(
                list(nx.pagerank(G, tol=1e-12).values()))).sum()), 1e-9)
            G.remove_edges_from(list(nx.selfloop_edges(G)))
            g = igraph.Graph.from_networkx(G)
            rnd = random.Random(seed)
            reset = [rnd.random() if rnd.random() < 0.2 else 0 for _ in range(g.vcount())]
            reset[0] = 1
            ref = g.personalized_pagerank(reset=reset, implementation="prpack")
            ours = webrank.pagerank_scipy(g, personalization=reset, abs_tol=1e-13,
                                          max_iter=1000)
            self.assertLess(float(np.abs(ours - np.array(ref)).sum()), 1e-9)


class PagerankScipy(unittest.TestCase):
    def test_matrix_arrays_graph(self):
        G = random_graph(40, nx.MultiDiGraph, weighted=True)
        ref = nx.pagerank(G)
        nodes = list(G)
        A = nx.to_scipy_sparse_array(G, nodelist=nodes)
        x = webrank.pagerank_scipy(A)
        self.assertIsInstance(x, np.ndarray)
        self.assertLess(float(np.abs(x - np.array([ref[v] for v in nodes])).sum()), 1e-9)
        for matrix in (scipy.sparse.csr_matrix(A), scipy.sparse.coo_array(A), A.toarray()):
            y = webrank.pagerank_scipy(matrix)
            self.assertLess(float(np.abs(x - y).sum()), 1e-12)
        coo = A.tocoo()
        y = webrank.pagerank_scipy((coo.row, coo.col, coo.data), pages=A.shape[0])
        self.assertLess(float(np.abs(x - y).sum()), 1e-12)
        # a NetworkX graph gives NetworkX's dict, as nx.pagerank_scipy does
        self.assertLess(l1(webrank.pagerank_scipy(G), ref), 1e-9)

    def test_arrays_personalization_dict_and_vector(self):
        src = np.array([0, 0, 1, 2, 2, 3])
        dst = np.array([1, 2, 2, 0, 3, 3])
        G = nx.DiGraph(list(zip(src.tolist(), dst.tolist())))
        G.add_node(4)
        pers = {1: 2.0, 3: 1.0}
        ref = nx.pagerank(G, personalization=pers, tol=1e-12)
        for p in (pers, [0, 2.0, 0, 1.0, 0]):
            x = webrank.pagerank_scipy((src, dst), pages=5, personalization=p, tol=1e-12)
            self.assertLess(sum(abs(x[i] - ref[i]) for i in range(5)), 1e-9)

    def test_faster_methods(self):
        G = random_graph(50, nx.DiGraph, n=400, m=3000)
        exact = webrank.pagerank(G, abs_tol=1e-14, max_iter=1000)
        for method in ("auto", "gauss-seidel", "extrapolate", "direct"):
            with self.subTest(method=method):
                got = webrank.pagerank(G, method=method, abs_tol=1e-12, max_iter=1000)
                self.assertLess(l1(got, exact), 1e-9)
        got = webrank.pagerank(G, precision="float", abs_tol=1e-5)
        self.assertLess(l1(got, exact), 1e-4)
        self.assertLess(l1(webrank.pagerank_numpy(G), exact), 1e-9)

    def test_bad_input(self):
        with self.assertRaises(ValueError):
            webrank.pagerank_scipy(scipy.sparse.csr_array((2, 3)))
        with self.assertRaises(ValueError):
            webrank.pagerank_scipy((np.array([0, 5]), np.array([1, 1])), pages=3)
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            webrank.pagerank(nx.path_graph(3), method="newton")
        self.assertEqual(e.exception.field, "method")


if __name__ == "__main__":
    unittest.main()

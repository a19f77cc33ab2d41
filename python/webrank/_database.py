"""Link databases from Python: open, rank, search, build, crawl (docs/python.md)."""
import warnings

import numpy as np

from . import _core
from ._errors import ConvergenceWarning

__all__ = ["Database", "build", "crawl"]


class Database(_core.Database):
    """A webrank link database (a directory made by `webrank build`, `import`, `crawl`, or
    webrank.build / webrank.crawl), opened in place: nothing is parsed or copied.

    Arrays it returns (out_links, backlinks, out_offsets, out_targets, in_offsets, in_sources,
    out_weights, ranks) are read-only NumPy views of the memory-mapped files, valid as long as
    any of them or the Database is referenced. Page ids are 0 .. pages-1.
    """

    def __repr__(self):
        return "webrank.Database(%r: %d pages, %d links)" % (str(self.path), self.pages,
                                                           self.links)

    def _weights(self, values, what):
        """dict {label or id: weight} or a sequence of page ids or labels (each weight 1) or an
        array of one value per page -> dense array."""
        if values is None:
            return None
        if isinstance(values, np.ndarray) and values.ndim == 1 and values.shape[0] == self.pages:
            return values
        x = np.zeros(self.pages)
        items = values.items() if isinstance(values, dict) else ((v, 1.0) for v in values)
        for key, w in items:
            x[self._page(key, what)] = w
        return x

    def _page(self, key, what="page"):
        if isinstance(key, (int, np.integer)):
            if not 0 <= key < self.pages:
                raise IndexError("%s: page id %d outside [0, %d)" % (what, key, self.pages))
            return int(key)
        i = self.find(key)
        if i is None:
            raise KeyError("%s: no page labelled %r in %s" % (what, key, self.path))
        return i

    def rank(self, name="pagerank", *, save=True, damping=0.85, tol=1e-10, max_iter=1000,
             dangling="source", method=None, precision="double", threads=0,
             personalization=None, start=None, dangling_weights=None, summation=None,
             callback=None):
        """Computes PageRank over the database with any of the CLI's solvers (`webrank rank`;
        docs/ranking.md) and stores it as the vector `name` (unless save=False). Returns
        (ranks, info): ranks a float64 array by page id, info the result as a dict
        ("iterations", "converged", "final_delta", "deltas", "seconds", ...).

        The solve runs without the GIL on a worker thread and stops at Ctrl-C
        (KeyboardInterrupt; stored vectors are kept as they were). tol is an absolute L1
        tolerance (the paper's criterion). personalization (the rank source E), start and
        dangling_weights are dicts {label or id: weight}, lists of pages (weight 1 each) or
        arrays of one value per page. callback(iteration, delta) is called after each
        iteration. method None is the CLI's default, "auto" (power or gauss-seidel, whichever
        is predicted faster; info["choice"] says which and why). A run that stops at max_iter is returned (and stored) flagged as not
        converged, with a ConvergenceWarning.
        """
        ranks, info = self._rank(name, save, damping=damping, tol=tol, max_iter=max_iter,
                                 dangling=dangling, method=method, precision=precision,
                                 threads=threads,
                                 source=self._weights(personalization, "personalization"),
                                 start=self._weights(start, "start"),
                                 dangling_weights=self._weights(dangling_weights,
                                                                "dangling_weights"),
                                 summation=summation, callback=callback)
        if not info["converged"]:
            warnings.warn("%s: ranking stopped after %d iterations at an L1 change of %g (tol %g)"
                          % (self.path, info["iterations"], info["final_delta"], tol),
                          ConvergenceWarning, stacklevel=2)
        return ranks, info

    def trust(self, seeds, *, good_fraction=1.0, damping=0.85, tol=1e-10, max_iter=1000,
              precision="double", threads=0, save=True):
        """TrustRank and spam mass (`webrank trust`; docs/spam.md): the personalized rank T
        with its source uniform over `seeds` (trusted pages: labels or ids), PageRank P in the
        same batch, and the spam masses M = P - good_fraction*T and m = M/P. Stored as
        `trustrank`, `spam-mass` and `spam-mass-absolute` unless save=False. Returns a dict of
        float64 arrays ("pagerank", "trustrank", "relative_mass", "absolute_mass") and the two
        solves' info ("pagerank_info", "trustrank_info")."""
        ids = [self._page(s, "seeds") for s in ([seeds] if isinstance(seeds, str) else seeds)]
        return self._trust(ids, good_fraction, damping, tol, max_iter, precision, threads, save)

    def spam_report(self, *, pagerank="pagerank", mass="spam-mass", min_scaled_pagerank=10,
                    min_supporters=5, min_farm_share=0.5, damping=0.85):
        """Likely spam farms (`webrank spam-report`; docs/spam.md) from the stored vectors
        `pagerank` and `mass` (a relative spam mass from trust(); None: structure alone), as a
        dict {"farms": [{"target", "supporters", "score", ...}], "candidates", ...} with page
        ids (label() names them)."""
        if mass is not None and mass not in self.rank_names():
            mass = None if mass == "spam-mass" else mass
        return self._spam_report(pagerank, mass, min_scaled_pagerank, min_supporters,
                                 min_farm_share, damping)

    def propose_seeds(self, k=20, *, damping=0.85):
        """Seed candidates for trust() by inverse PageRank (pages from which much of the web is
        reached), for a person to vet: [(page id, inverse PageRank)], best first."""
        return self._propose_seeds(k, damping)

    def rank_batch(self, sources, *, damping=0.85, tol=1e-10, max_iter=1000, precision="double",
                   threads=0):
        """Personalized PageRank for many sources at once (`webrank rank --batch`;
        docs/personalization.md): each source is a list of pages (labels or ids; E uniform over
        them, [] = uniform over the web). Returns (ranks, infos): a (len(sources), pages) float64
        array and one info dict per source."""
        ids = [[self._page(p, "sources") for p in s] for s in sources]
        return self._rank_batch(ids, damping, tol, max_iter, precision, threads)

    def search(self, query, k=10, *, mode="full", ranks=None, offset=0, snippets=True,
               rank_weight=0.2):
        """Full-text search (docs/search.md): the k best pages for `query` as a dict ("hits":
        [{"position", "url", "title", "score", "rank", "percentile", "snippet", ...}],
        "matches", "unknown_words", ...). mode is "full" (BM25 merged with PageRank), "text" or
        "title"; ranks names the stored vector to rank by (default "pagerank" if stored). Needs
        the index: db.build_index() (or `webrank index DB`)."""
        return self._search(query, k, mode, ranks, offset, snippets, rank_weight)

    def to_networkx(self):
        """The web as a networkx.DiGraph over the page labels (a copy: for small webs)."""
        import networkx as nx

        labels = self.labels()
        G = nx.DiGraph()
        G.add_nodes_from(labels)
        src = np.repeat(np.arange(self.pages), np.diff(self.out_offsets))
        G.add_edges_from(zip((labels[i] for i in src), (labels[j] for j in self.out_targets)))
        return G


def build(inputs, output, *, weighted=False, format="auto", pages="", labels="",
          order="input", memory_budget=0, force=False, threads=0):
    """Builds a link database from edge lists or other graph formats (`webrank build` /
    `webrank import`; README) and opens it. inputs is a path or a list of paths. Runs without
    the GIL and stops at Ctrl-C, leaving nothing behind. Returns (Database, report dict)."""
    report = _core._build(inputs, str(output), weighted, format, str(pages), str(labels), order,
                          memory_budget, force, threads)
    return Database(output), report


def crawl(seeds, output, *, max_pages=10000, max_depth=50, delay=0.25, prefixes=None,
          robots=True, resume=False, force=False):
    """Crawls from seed URLs and builds the database (`webrank crawl`; README). Ctrl-C ends
    fetching, builds the database from what was fetched, then raises KeyboardInterrupt.
    Returns (Database, report dict)."""
    report = _core._crawl(seeds, str(output), max_pages, max_depth, delay, prefixes, robots,
                          resume, force)
    return Database(output), report

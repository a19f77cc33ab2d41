"""Link databases from Python: open, rank, search, build, crawl (docs/python.md).

webrank.Database's methods are the operations of webrank's app layer, one per `webrank` command
that works on a database (rank, top, search, trust, explain, ...), made from the declarations
the command line and the server use too (_operations.py): the same options, defaults and JSON.
The functions build, import_graph, crawl and generate are the operations that make a database
or a file. A few methods add what a Python user expects on top (rank returns the vector as an
array; pages may be named by id).
"""
import os
import tempfile
import warnings

import numpy as np

from . import _core
from . import _operations
from ._errors import ConvergenceWarning

__all__ = ["Database", "build", "import_graph", "crawl", "generate"]


class Database(_core.Database):
    """A webrank link database (a directory made by `webrank build`, `import`, `crawl`, or
    webrank.build / webrank.crawl), opened in place: nothing is parsed or copied. Usable as a
    context manager (closed at the end of the block).

    Arrays it returns (out_links, backlinks, out_offsets, out_targets, in_offsets, in_sources,
    out_weights, ranks) are read-only NumPy views of the memory-mapped files, valid as long as
    any of them is referenced, even after close(). Page ids are 0 .. pages-1.
    """

    def __repr__(self):
        if self.closed:
            return "webrank.Database(closed)"
        return "webrank.Database(%r: %d pages, %d links)" % (str(self.path), self.pages,
                                                           self.links)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _label_of(self, page, what):
        """A page named by id (an int) or by label, as the label operations take."""
        if isinstance(page, (int, np.integer)) and not isinstance(page, bool):
            if not 0 <= page < self.pages:
                raise IndexError("%s: page id %d outside [0, %d)" % (what, page, self.pages))
            return self.label(int(page))
        return page

    def _weights(self, values, what):
        """dict {label or id: weight}, a sequence of page ids or labels (weight 1 each), or an
        array of one value per page -> what the operation takes."""
        if values is None or isinstance(values, (str, os.PathLike)):
            return values
        if isinstance(values, np.ndarray) and values.ndim == 1 and values.shape[0] == self.pages:
            return values
        x = np.zeros(self.pages)
        items = values.items() if isinstance(values, dict) else ((v, 1.0) for v in values)
        for key, w in items:
            label = self._label_of(key, what)
            i = self.find(label)
            if i is None:
                raise KeyError("%s: no page labelled %r in %s" % (what, label, self.path))
            x[i] = w
        return x

    def rank(self, name="pagerank", *, callback=None, **options):
        """Computes PageRank with any of the CLI's solvers and formulations (`webrank rank`;
        docs/ranking.md) and stores it as the vector `name` (unless save=False). Returns
        (ranks, info): ranks a float64 array by page id, info the vector's record as a dict
        ("iterations", "converged", "final_delta", "deltas", "method", "solved_by", ...) with
        "stored". Options are rank's (help(Database.rank_operation) lists them); personalization
        (or source), start and dangling_weights take dicts {label or id: weight}, lists of
        pages or arrays of one value per page. callback(iteration, delta) is called after each
        iteration. A run that stops at max_iter is returned (and stored) flagged as not
        converged, with a ConvergenceWarning. Ctrl-C stops it (KeyboardInterrupt)."""
        for key in ("source", "personalization", "start", "dangling_weights"):
            if key in options:
                options[key] = self._weights(options[key], key)
        info, arrays = self.rank_operation(name=name, callback=callback, _arrays=True, **options)
        return (next(iter(arrays.values())) if arrays else None), info

    def rank_batch(self, sources, *, callback=None, **options):
        """Personalized PageRank for many sources at once (`webrank rank --batch`;
        docs/personalization.md): each source is a list of pages (labels or ids; E uniform over
        them, [] = uniform over the web). Returns (ranks, infos): a (len(sources), pages) float64
        array and one info dict per source. Nothing is stored unless save=True (vectors named
        batch.0, batch.1, ...)."""
        options.setdefault("save", False)
        with tempfile.NamedTemporaryFile("w", suffix=".batch", delete=False) as f:
            for i, source in enumerate(sources):
                labels = [self._label_of(p, "sources") for p in source]
                f.write("batch.%d%s\n" % (i, "".join("\t" + l for l in labels)))
        try:
            info, arrays = self.rank_operation(batch=f.name, callback=callback, _arrays=True,
                                               **options)
        finally:
            os.unlink(f.name)
        return (np.vstack([arrays["batch.%d" % i] for i in range(len(sources))]),
                info["vectors"])

    def page(self, page):
        """One page (a label, a URL or an id) with everything the database knows of it
        (`webrank page`)."""
        return self.page_operation(self._label_of(page, "page"))

    def trust(self, seeds, **options):
        """TrustRank and spam mass (`webrank trust`; docs/spam.md): seeds are trusted pages
        (labels, URLs or ids) or a file of them. Stores trustrank, spam-mass and
        spam-mass-absolute (Database.ranks() reads them) and returns the pages of highest
        relative spam mass, as `webrank trust --json`."""
        if not isinstance(seeds, (str, os.PathLike)):
            seeds = [self._label_of(s, "seeds") for s in seeds]
        return self.trust_operation(seeds, **options)

    def to_networkx(self):
        """The web as a networkx.DiGraph over the page labels (a copy: for small webs)."""
        import networkx as nx

        labels = self.labels()
        G = nx.DiGraph()
        G.add_nodes_from(labels)
        src = np.repeat(np.arange(self.pages), np.diff(self.out_offsets))
        G.add_edges_from(zip((labels[i] for i in src), (labels[j] for j in self.out_targets)))
        return G


# One method per operation on a database, one function per operation that makes one. A method
# that the class defines by hand (rank, page, trust) keeps the operation as NAME_operation.
_module_functions = {}
for _op in _operations.operations():
    _fn = _operations.make_function(_op, on_database=_op["database"])
    _name = _operations.python_name(_op["name"])
    if _op["database"]:
        if _name in Database.__dict__:
            _name += "_operation"
        _fn.__name__ = _name
        _fn.__qualname__ = "Database." + _name
        setattr(Database, _name, _fn)
    else:
        _module_functions[_name] = _fn


def build(inputs, output, **options):
    """Builds a link database from edge lists or other graph formats (`webrank build`; the
    options are build's) and opens it. Runs without the GIL and stops at Ctrl-C, leaving nothing
    behind. Returns (Database, report dict)."""
    report = _module_functions["build"](inputs, output=output, **options)
    return Database(output), report


def import_graph(inputs, output, **options):
    """Builds a link database from a graph in another format or a crawl (`webrank import`:
    bv, mtx, pajek, gml, graphml, cc-hosts, wdc, warc, html-dir) and opens it. Returns
    (Database, report dict)."""
    report = _module_functions["import_graph"](inputs, output=output, **options)
    return Database(output), report


def crawl(seeds, output, **options):
    """Crawls from seed URLs and builds the database (`webrank crawl`; the options are crawl's:
    max_pages, max_depth, delay, scope, ...). Ctrl-C ends fetching, builds the database from
    what was fetched, then raises KeyboardInterrupt. Returns (Database, report dict)."""
    if isinstance(seeds, (str, os.PathLike)):
        seeds = [seeds]
    report = _module_functions["crawl"](seeds, output=output, **options)
    return Database(output), report


generate = _module_functions["generate"]

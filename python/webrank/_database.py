"""Link databases from Python: open, rank, search, build, crawl (docs/python.md).

webrank.Database's methods are the operations of webrank's app layer, one per `webrank` command
that works on a database (rank, top, search, trust, explain, ...), made from the declarations
the command line and the server use too (_operations.py): the same options, defaults and JSON.
The functions build, import_graph, crawl and generate are the operations that make a database
or a file. A few methods add what a Python user expects on top (rank returns the vector as an
array; pages may be named by id).
"""
import inspect
import os

import numpy as np

from . import _arguments, _core, _operations
from ._errors import InvalidArgumentError, InvalidTypeError

__all__ = ["Database", "build", "import_graph", "crawl", "generate"]


class Database(_core.Database):
    """A webrank link database (a directory made by `webrank build`, `import`, `crawl`, or
    webrank.build / webrank.crawl), opened in place: nothing is parsed or copied. Usable as a
    context manager (closed at the end of the block).

    Arrays it returns (out_links, backlinks, out_offsets, out_targets, in_offsets, in_sources,
    out_weights, ranks) are read-only NumPy views of the memory-mapped files, valid as long as
    any of them is referenced, even after close(). Page ids are 0 .. pages-1.
    """

    def __init__(self, path, verify=False):
        super().__init__(_arguments.path(path, "path"), _arguments.flag(verify, "verify"))

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

    # The members of the extension that take arguments, each checked here first.
    def label(self, id):
        """The label of page `id` (its URL for a crawl)."""
        return super().label(_arguments.page_id(id, "id", self.pages))

    def title(self, id):
        """The title of page `id` (None when the web has none for it)."""
        return super().title(_arguments.page_id(id, "id", self.pages))

    def out_links(self, id):
        """The pages page `id` links to, ascending (a read-only uint32 view)."""
        return super().out_links(_arguments.page_id(id, "id", self.pages))

    def backlinks(self, id):
        """The pages that link to page `id`, ascending (a read-only uint32 view)."""
        return super().backlinks(_arguments.page_id(id, "id", self.pages))

    def find(self, label):
        """The id of the page labelled `label`, or of the URL it normalizes to; None if none."""
        return super().find(_arguments.text(label, "label"))

    def ranks(self, name="pagerank"):
        """The stored vector `name` (a read-only view of its file: float64, or float32 when
        ranked with precision="float")."""
        return super().ranks(_arguments.text(name, "name"))

    def rank_info(self, name="pagerank"):
        """The record of the stored vector `name` (docs/format.md) as a dict."""
        return super().rank_info(_arguments.text(name, "name"))

    def delete_ranks(self, name):
        """Deletes the stored vector `name`."""
        return super().delete_ranks(_arguments.text(name, "name"))

    def _label_of(self, page, what):
        """A page named by id (a whole number) or by label, as the label operations take."""
        if _arguments.is_number(page):
            return self.label(_arguments.page_id(page, what, self.pages))
        return _arguments.text(page, what)

    def _weights(self, values, what):
        """dict {label or id: weight}, a sequence of page ids or labels (weight 1 each), or an
        array of one value per page -> what the operation takes (labels or numbers; the
        operation checks the labels and the weights)."""
        if values is None or isinstance(values, (str, os.PathLike)):
            return values
        if isinstance(values, np.ndarray) and values.ndim == 1 and (
                values.dtype.kind == "f" or values.shape[0] == self.pages):
            return values
        if isinstance(values, dict):
            return {self._label_of(k, what): w for k, w in values.items()}
        if not isinstance(values, (list, tuple, np.ndarray)):
            raise _arguments.fail(InvalidTypeError, what, "must be a dict {page: weight}, a list "
                                  "of pages, an array of one value per page or a file, got %s"
                                  % _arguments.shown(values))
        return {self._label_of(p, what): 1.0 for p in values}

    def rank(self, name="pagerank", *, callback=None, **options):
        """Computes PageRank with any of the CLI's solvers and formulations (`webrank rank`;
        docs/ranking.md) and stores it as the vector `name` (unless save=False). Returns
        (ranks, info): ranks a float64 array by page id, info the vector's record as a dict
        ("iterations", "converged", "final_delta", "deltas", "method", "solved_by", ...) with
        "stored". Options are rank's (help(Database.rank_operation) lists them); personalization
        (or source), start and dangling_weights take dicts {label or id: weight}, lists of
        pages or arrays of one value per page. callback(iteration, delta) is called after each
        iteration. method is by default "auto", as on the command line (power or gauss-seidel,
        whichever is predicted faster; info["choice"] says which and why). A run that stops at
        max_iter is returned (and stored) flagged as not converged, with a ConvergenceWarning.
        Ctrl-C stops it (KeyboardInterrupt)."""
        for key in options:
            if key in _PAGE_WEIGHTS:
                options[key] = self._weights(options[key], key)
        info, arrays = self.rank_operation(name=name, callback=callback, _arrays=True, **options)
        return (next(iter(arrays.values())) if arrays else None), info

    def rank_batch(self, sources, *, callback=None, **options):
        """Personalized PageRank for many sources at once (`webrank rank --batch`;
        docs/personalization.md): each source is a list of pages (labels, URLs or ids; E uniform
        over them, [] = uniform over the web). Returns (ranks, infos): a (len(sources), pages)
        float64 array and one info dict per source. Nothing is stored unless save=True (vectors
        named batch.0, batch.1, ...). The options are rank's that a batch takes."""
        lines = []
        for i, source in enumerate(_arguments.items(sources, "sources", "list of sources "
                                                    "(lists of pages)")):
            pages = _arguments.items(source, "sources", "list of sources (lists of pages), "
                                     "source %d" % i)
            # Each page by its own label, as the batch's lines name pages ('@' escaped).
            labels = [self.label(self._page(p, "sources", "source %d" % i)) for p in pages]
            lines.append(["batch.%d" % i] + ["@" + l if l.startswith("@") else l
                                             for l in labels])
        if not lines:
            raise _arguments.fail(InvalidArgumentError, "sources", "holds no source")
        options.setdefault("save", False)
        info, arrays = self.rank_operation(batch=lines, callback=callback, _arrays=True, **options)
        return np.vstack([arrays["batch.%d" % i] for i in range(len(lines))]), info["vectors"]

    def _page(self, page, field, where=""):
        """The id of a page given by id or by label (or URL); InvalidArgumentError when the
        database has no such page."""
        if _arguments.is_number(page):
            return _arguments.page_id(page, field, self.pages)
        label = _arguments.text(page, field)
        found = self.find(label)
        if found is None:
            raise _arguments.fail(InvalidArgumentError, field, "%s: page '%s' is not in the "
                                  "database %s" % (where, label, self.path) if where else
                                  "page '%s' is not in the database %s" % (label, self.path))
        return found

    def page(self, page, **options):
        """One page (a label, a URL or an id) with everything the database knows of it
        (`webrank page`)."""
        return self.page_operation(self._label_of(page, "page"), **options)

    def trust(self, seeds, **options):
        """TrustRank and spam mass (`webrank trust`; docs/spam.md): seeds are trusted pages
        (labels, URLs or ids) or a file of them. Stores trustrank, spam-mass and
        spam-mass-absolute (Database.ranks() reads them) and returns the pages of highest
        relative spam mass, as `webrank trust --json`."""
        if not isinstance(seeds, (str, os.PathLike)):
            seeds = [self._label_of(s, "seeds")
                     for s in _arguments.items(seeds, "seeds", "list of pages or a file")]
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


_OPERATIONS = {op["name"]: op for op in _operations.operations()}

# The keywords of `rank` that take per-page weights (and their aliases), from its declaration:
# Database.rank lets them name pages by id too.
_PAGE_WEIGHTS = {n for spec in _OPERATIONS["rank"]["options"] if spec["type"] == "weights"
                 for n in [spec["name"]] + spec["aliases"]}

# One method per operation on a database, one function per operation that makes one. A method
# that the class defines by hand (rank, page, trust) keeps the operation as NAME_operation.
_module_functions = {}
for _op in _OPERATIONS.values():
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


# The methods written by hand over an operation, with the signatures its declaration makes (help()
# and the stubs show every keyword): rank's, rank's that a batch takes (not those that exclude
# it), page's and trust's.
_P = inspect.Parameter
_rank = _OPERATIONS["rank"]["options"]
_operations.declare(Database.rank, [_P("name", _P.POSITIONAL_OR_KEYWORD, default="pagerank",
                                       annotation="str")]
                    + _operations.keywords(_rank, exclude={"name", "batch"}),
                    "Tuple[npt.NDArray[np.float64], dict[str, Any]]")
_operations.declare(Database.rank_batch,
                    [_P("sources", _P.POSITIONAL_OR_KEYWORD, annotation="_Sources")]
                    + _operations.keywords(
                        _rank, exclude={"batch"} | {s["name"] for s in _rank
                                                    if "batch" in s["excludes"]},
                        defaults={"save": False}),
                    "Tuple[npt.NDArray[np.float64], list[dict[str, Any]]]")
_operations.declare(Database.page, [_P("page", _P.POSITIONAL_OR_KEYWORD, annotation="_Page")]
                    + _operations.keywords(_OPERATIONS["page"]["options"], exclude={"page"}),
                    "dict[str, Any]")
_operations.declare(Database.trust,
                    [_P("seeds", _P.POSITIONAL_OR_KEYWORD, annotation="_Seeds")]
                    + _operations.keywords(_OPERATIONS["trust"]["options"], exclude={"seeds"}),
                    "list[dict[str, Any]]")


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

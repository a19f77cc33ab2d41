# Type stubs of the webrank package (docs/python.md): editors complete and check the API.
import os
from typing import Any, Callable, Hashable, Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

_Weights = Union[Mapping[Hashable, float], Sequence[float], npt.NDArray[np.float64], None]
_Path = Union[str, os.PathLike]
_Method = str  # "power" | "paper" | "direct" | "gauss-seidel" | "extrapolate" | "auto"
_Precision = str  # "double" | "float"

class Error(Exception):
    kind: Optional[str]
    field: Optional[str]

class InvalidArgumentError(Error, ValueError): ...
class InvalidTypeError(Error, TypeError): ...
class InvalidInputError(Error, ValueError): ...
class NotFoundError(Error, FileNotFoundError): ...
class ExistsError(Error, FileExistsError): ...
class CorruptError(Error): ...
class IoError(Error, OSError): ...
class CancelledError(Error): ...
class ConflictError(Error): ...
class InternalError(Error, RuntimeError): ...
class PageIdError(InvalidArgumentError, IndexError): ...
class ZeroSumError(InvalidArgumentError, ZeroDivisionError): ...
class ConvergenceWarning(UserWarning): ...

class PowerIterationFailedConvergence(Error):
    num_iterations: int
    def __init__(self, num_iterations: int, *args: Any, **kw: Any) -> None: ...

def pagerank(
    G: Any,
    alpha: float = 0.85,
    personalization: Optional[Mapping[Hashable, float]] = None,
    max_iter: int = 100,
    tol: float = 1.0e-6,
    nstart: Optional[Mapping[Hashable, float]] = None,
    weight: Optional[str] = "weight",
    dangling: Optional[Mapping[Hashable, float]] = None,
    *,
    abs_tol: Optional[float] = None,
    method: _Method = "power",
    precision: _Precision = "double",
    threads: int = 0,
) -> dict[Hashable, float]: ...
def pagerank_scipy(
    A: Any,
    alpha: float = 0.85,
    personalization: _Weights = None,
    max_iter: int = 100,
    tol: float = 1.0e-6,
    nstart: _Weights = None,
    weight: Optional[str] = "weight",
    dangling: _Weights = None,
    *,
    pages: Optional[int] = None,
    abs_tol: Optional[float] = None,
    method: _Method = "power",
    precision: _Precision = "double",
    threads: int = 0,
) -> Any: ...  # np.ndarray (dict for a NetworkX graph)
def pagerank_numpy(
    G: Any,
    alpha: float = 0.85,
    personalization: Optional[Mapping[Hashable, float]] = None,
    weight: Optional[str] = "weight",
    dangling: Optional[Mapping[Hashable, float]] = None,
) -> dict[Hashable, float]: ...

class Graph:
    pages: int
    links: int
    weighted: bool
    @staticmethod
    def from_adjacency(adj: dict, index: dict, weight: Optional[str], multigraph: bool) -> Graph: ...
    @staticmethod
    def from_arrays(
        pages: int, src: npt.ArrayLike, dst: npt.ArrayLike, weight: Optional[npt.ArrayLike] = None
    ) -> Graph: ...
    @staticmethod
    def from_csr(pages: int, indptr: npt.ArrayLike, indices: npt.ArrayLike, data: npt.ArrayLike) -> Graph: ...

def rank(graph: Graph, **options: Any) -> Tuple[npt.NDArray[np.float64], dict[str, Any]]: ...

_PageWeights = Union[Mapping[Union[str, int], float], Iterable[Union[str, int]], npt.NDArray[np.float64], None]

class Database:
    path: os.PathLike
    pages: int
    links: int
    weighted: bool
    dangling_pages: int
    closed: bool
    out_offsets: npt.NDArray[np.uint64]
    out_targets: npt.NDArray[np.uint32]
    out_weights: npt.NDArray[np.float64]
    in_offsets: npt.NDArray[np.uint64]
    in_sources: npt.NDArray[np.uint32]
    def __init__(self, path: _Path, verify: bool = False) -> None: ...
    def __len__(self) -> int: ...
    def __enter__(self) -> Database: ...
    def __exit__(self, *exc: Any) -> bool: ...
    def close(self) -> None: ...
    def refresh(self) -> bool: ...
    def label(self, id: int) -> str: ...
    def labels(self) -> list[str]: ...
    def find(self, label: str) -> Optional[int]: ...
    def title(self, id: int) -> Optional[str]: ...
    def out_links(self, id: int) -> npt.NDArray[np.uint32]: ...
    def backlinks(self, id: int) -> npt.NDArray[np.uint32]: ...
    def rank_names(self) -> list[str]: ...
    def ranks(self, name: str = "pagerank") -> npt.NDArray[Any]: ...  # float64 or float32, read-only
    def rank_info(self, name: str = "pagerank") -> dict[str, Any]: ...
    def delete_ranks(self, name: str) -> None: ...
    def verify(self) -> None: ...
    def rank(
        self, name: str = "pagerank", *, callback: Optional[Callable[[int, float], Any]] = None, **options: Any
    ) -> Tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
    def rank_batch(
        self,
        sources: Sequence[Sequence[Union[str, int]]],
        *,
        callback: Optional[Callable[[int, float], Any]] = None,
        **options: Any,
    ) -> Tuple[npt.NDArray[np.float64], list[dict[str, Any]]]: ...
    def page(self, page: Union[str, int]) -> dict[str, Any]: ...
    def trust(self, seeds: Union[_Path, Iterable[Union[str, int]]], **options: Any) -> list[dict[str, Any]]: ...
    def to_networkx(self) -> Any: ...
    # --- methods generated by python/make_stubs.py from the declarations; do not edit
    def update(
        self,
        add: Sequence[str] = [],
        *,
        remove: Sequence[str] = [],
        no_index: bool = False,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank update --json`
    def export(
        self,
        links: bool = False,
        *,
        pages: bool = False,
        ids: bool = False,
        weighted: bool = False,
        format: str = 'edges',
        ranks: Sequence[str] = [],
        output: str = '-',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank export --json`
    def rank_operation(
        self,
        damping: float = 0.85,
        *,
        tol: float = 1e-10,
        max_iter: int = 1000,
        precision: str = 'double',
        dangling: str = 'source',
        dangling_weights: Optional[_PageWeights] = None,
        personalize: Sequence[str] = [],
        source: Optional[_PageWeights] = None,
        root_pages: bool = False,
        bookmarks: str = '',
        start: Optional[_PageWeights] = None,
        method: str = 'auto',
        sweep: str = 'auto',
        block_pages: int = 0,
        memory_budget: int = 0,
        warm_start: str = '',
        warm_start_db: str = '',
        name: str = 'pagerank',
        save: bool = True,
        replace_unconverged: bool = False,
        out: str = '',
        scale: str = 'unit',
        batch: str = '',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank rank --json`
    def hits(
        self,
        tol: float = 1e-10,
        *,
        max_iter: int = 1000,
        name: str = 'hits',
        replace_unconverged: bool = False,
        out: str = '',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank hits --json`
    def topics(
        self,
        assign: str = '',
        *,
        damping: float = 0.85,
        tol: float = 1e-10,
        max_iter: int = 1000,
        precision: str = 'double',
        k: int = 10,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank topics --json`
    def ppr(
        self,
        pages: Sequence[str],
        *,
        k: int = 20,
        eps: float = 1e-07,
        damping: float = 0.85,
        store: str = '',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank ppr --json`
    def compare(
        self,
        views: Sequence[str] = [],
        *,
        homes: Sequence[str] = [],
        pages: str = '',
        k: int = 10,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank compare --json`
    def info(
        self,
        threads: int = 0,
        *,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank info --json`
    def check(
        self,
        ranks: Sequence[str] = [],
        *,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank check --json`
    def vectors(
        self,
        delete: Sequence[str] = [],
        *,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank ranks --json`
    def top(
        self,
        k: int = 20,
        *,
        ranks: str = 'pagerank',
        topics: str = '',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank top --json`
    def page_operation(
        self,
        page: str,
        *,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank page --json`
    def backlinks_by_rank(
        self,
        page: str,
        *,
        k: int = 20,
        offset: int = 0,
        ranks: str = 'pagerank',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank backlinks --json`
    def links_by_rank(
        self,
        page: str,
        *,
        ranks: str = 'pagerank',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank links --json`
    def compare_ranks(
        self,
        a: str,
        b: str,
        *,
        k: Sequence[int] = [10, 100, 1000],
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank compare-ranks --json`
    def search(
        self,
        query: str,
        *,
        mode: str = 'full',
        k: int = 10,
        offset: int = 0,
        ranks: str = '',
        topics: str = '',
        rank_weight: float = 0.25,
        name_weight: float = 0.3,
        anchor_name_weight: float = 0.1,
        family_name_weight: float = 0.0,
        bm25_k1: float = 2.0,
        bm25_b: float = 0.2,
        snippets: bool = True,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank search --json`
    def eval(
        self,
        queries: str,
        *,
        ranks: str = '',
        rank_weight: float = 0.25,
        name_weight: float = 0.3,
        anchor_name_weight: float = 0.1,
        family_name_weight: float = 0.0,
        bm25_k1: float = 2.0,
        bm25_b: float = 0.2,
        repeat: int = 1,
        per_query: bool = False,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank eval --json`
    def build_index(
        self,
        field_weights: str = '6,1,10,8,0',
        *,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank index --json`
    def trust_operation(
        self,
        seeds: _PageWeights,
        *,
        out: str = '',
        good_fraction: float = 1.0,
        absolute: bool = False,
        damping: float = 0.85,
        tol: float = 1e-10,
        max_iter: int = 1000,
        precision: str = 'double',
        k: int = 20,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank trust --json`
    def propose_seeds(
        self,
        k: int = 20,
        *,
        out: str = '',
        damping: float = 0.85,
        tol: float = 1e-10,
        max_iter: int = 1000,
        precision: str = 'double',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank seeds --json`
    def spam_report(
        self,
        seeds: Optional[_PageWeights] = None,
        *,
        good_fraction: float = 1.0,
        ranks: str = '',
        damping: float = 0.85,
        tol: float = 1e-10,
        max_iter: int = 1000,
        precision: str = 'double',
        min_scaled_pagerank: float = 10.0,
        min_supporters: int = 5,
        min_share: float = 0.5,
        min_out_share: float = 0.5,
        min_mass: float = 0.9,
        k: int = 20,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank spam-report --json`
    def plant_farm(
        self,
        target: str,
        *,
        supporters: int,
        accessible: int = 0,
        shape: str = 'star',
        farms: int = 1,
        camouflage: int = 2,
        seed: int = 1,
        output: str = '',
        truth: str = '',
        force: bool = False,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank plant-farm --json`
    def explain(
        self,
        page: str,
        *,
        ranks: str = 'pagerank',
        k: int = 10,
        without: Sequence[str] = [],
        without_host: Sequence[str] = [],
        no_what_if: bool = False,
        what_if_seconds: float = 2.0,
        what_if_tol: float = 1e-06,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank explain --json`
    def usage(
        self,
        counts: str = '',
        *,
        strict: bool = False,
        log: str = '',
        site: str = '',
        keep_bots: bool = False,
        ranks: str = 'pagerank',
        k: int = 10,
        source: bool = False,
        name: str = 'usage',
        damping: float = 0.85,
        tol: float = 1e-10,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank usage --json`
    def crawl_order(
        self,
        seed: str = '',
        *,
        order: Sequence[str] = [],
        recompute: int = 0,
        hot: str = 'in-degree',
        hot_fraction: float = 0.01,
        ranks: str = 'pagerank',
        damping: float = 0.85,
        points: int = 100,
        random_seed: int = 1,
        out: str = '',
        html: str = '',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank crawl-order --json`
    def hosts(
        self,
        output: str,
        *,
        by: str = 'host',
        keep_internal: bool = False,
        damping: float = 0.85,
        tol: float = 1e-10,
        name: str = 'hostrank',
        k: int = 20,
        force: bool = False,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank hosts --json`
    def centrality(
        self,
        harmonic: bool = False,
        *,
        counters: str = 'auto',
        log2m: int = 7,
        exact_max_pages: int = 16384,
        seed: int = 24301,
        name: str = 'harmonic',
        compare: str = 'pagerank',
        k: int = 10,
        out: str = '',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank centrality --json`
    def report(
        self,
        output: str = '',
        *,
        format: str = 'html',
        ranks: str = '',
        k: int = 20,
        title: str = '',
        page: str = '',
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank report --json`
    def partition(
        self,
        parts: int,
        *,
        output: str,
        force: bool = False,
        threads: int = 0,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Any: ...  # the JSON form of `webrank partition --json`
    # --- end of the generated methods

# --- functions generated by python/make_stubs.py from the declarations; do not edit
def build(
    inputs: Sequence[str],
    output: str,
    *,
    format: str = 'auto',
    pages: str = '',
    labels: str = '',
    weighted: bool = False,
    order: str = 'input',
    memory_budget: int = 0,
    force: bool = False,
    no_index: bool = False,
    threads: int = 0,
    callback: Optional[Callable[[int, float], Any]] = None,
) -> Tuple[Database, dict[str, Any]]: ...  # and the JSON form of `webrank build --json`
def import_graph(
    inputs: Sequence[str],
    output: str,
    *,
    format: str = 'auto',
    pages: str = '',
    labels: str = '',
    weighted: bool = False,
    order: str = 'input',
    memory_budget: int = 0,
    force: bool = False,
    no_index: bool = False,
    threads: int = 0,
    callback: Optional[Callable[[int, float], Any]] = None,
) -> Tuple[Database, dict[str, Any]]: ...  # and the JSON form of `webrank import --json`
def crawl(
    seeds: Sequence[str] = [],
    output: str = '',
    *,
    recrawl: str = '',
    scope: Sequence[str] = [],
    scope_host: Sequence[str] = [],
    max_pages: int = 10000,
    max_depth: int = 50,
    max_bytes: int = 10485760,
    max_url_length: int = 1024,
    max_query_variants: int = 100,
    delay: float = 0.25,
    per_host: int = 2,
    connections: int = 16,
    timeout: float = 30.0,
    connect_timeout: float = 10.0,
    retries: int = 2,
    backoff: float = 0.5,
    max_redirects: int = 5,
    user_agent: str = 'webrank/0.1 (+https://github.com/webrank)',
    ignore_robots: bool = False,
    resume: bool = False,
    force: bool = False,
    no_index: bool = False,
    no_verify: bool = False,
    threads: int = 0,
    callback: Optional[Callable[[int, float], Any]] = None,
) -> Tuple[Database, dict[str, Any]]: ...  # and the JSON form of `webrank crawl --json`
def generate(
    model: str = 'web',
    *,
    pages: int = 10000,
    links: int = 80000,
    seed: int = 1,
    output: str,
    text: bool = False,
    threads: int = 0,
    callback: Optional[Callable[[int, float], Any]] = None,
) -> Any: ...  # the JSON form of `webrank generate --json`
# --- end of the generated functions

# Type stubs of the webrank package (docs/python.md): editors complete and check the API.
import os
from typing import Any, Callable, Hashable, Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Weights = Union[Mapping[Hashable, float], Sequence[float], npt.NDArray[np.float64], None]
_Path = Union[str, os.PathLike]
_Method = str  # "power" | "paper" | "direct" | "gauss-seidel" | "extrapolate" | "auto"
_Precision = str  # "double" | "float"

class Error(Exception):
    kind: Optional[str]
    field: Optional[str]

class InvalidArgumentError(Error, ValueError): ...
class InvalidInputError(Error, ValueError): ...
class NotFoundError(Error, FileNotFoundError): ...
class ExistsError(Error, FileExistsError): ...
class CorruptError(Error): ...
class IoError(Error, OSError): ...
class CancelledError(Error): ...
class ConflictError(Error): ...
class InternalError(Error, RuntimeError): ...
class ConvergenceWarning(UserWarning): ...

class PowerIterationFailedConvergence(Exception):
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
    out_offsets: npt.NDArray[np.uint64]
    out_targets: npt.NDArray[np.uint32]
    out_weights: npt.NDArray[np.float64]
    in_offsets: npt.NDArray[np.uint64]
    in_sources: npt.NDArray[np.uint32]
    def __init__(self, path: _Path, verify: bool = False) -> None: ...
    def __len__(self) -> int: ...
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
    def rank(
        self,
        name: str = "pagerank",
        *,
        save: bool = True,
        damping: float = 0.85,
        tol: float = 1e-10,
        max_iter: int = 1000,
        dangling: str = "source",
        method: _Method = "power",
        precision: _Precision = "double",
        threads: int = 0,
        personalization: _PageWeights = None,
        start: _PageWeights = None,
        dangling_weights: _PageWeights = None,
        summation: Optional[str] = None,
        callback: Optional[Callable[[int, float], Any]] = None,
    ) -> Tuple[npt.NDArray[np.float64], dict[str, Any]]: ...
    def trust(
        self,
        seeds: Union[str, Iterable[Union[str, int]]],
        *,
        good_fraction: float = 1.0,
        damping: float = 0.85,
        tol: float = 1e-10,
        max_iter: int = 1000,
        precision: _Precision = "double",
        threads: int = 0,
        save: bool = True,
    ) -> dict[str, Any]: ...
    def spam_report(
        self,
        *,
        pagerank: str = "pagerank",
        mass: Optional[str] = "spam-mass",
        min_scaled_pagerank: float = 10,
        min_supporters: int = 5,
        min_farm_share: float = 0.5,
        damping: float = 0.85,
    ) -> dict[str, Any]: ...
    def propose_seeds(self, k: int = 20, *, damping: float = 0.85) -> list[Tuple[int, float]]: ...
    def rank_batch(
        self,
        sources: Sequence[Sequence[Union[str, int]]],
        *,
        damping: float = 0.85,
        tol: float = 1e-10,
        max_iter: int = 1000,
        precision: _Precision = "double",
        threads: int = 0,
    ) -> Tuple[npt.NDArray[np.float64], list[dict[str, Any]]]: ...
    def top(self, k: int = 10, name: str = "pagerank") -> list[dict[str, Any]]: ...
    def page(self, id: int) -> dict[str, Any]: ...
    def info(self) -> dict[str, Any]: ...
    def verify(self) -> None: ...
    def build_index(self, threads: int = 0) -> dict[str, Any]: ...
    def search(
        self,
        query: str,
        k: int = 10,
        *,
        mode: str = "full",
        ranks: Optional[str] = None,
        offset: int = 0,
        snippets: bool = True,
        rank_weight: float = 0.2,
    ) -> dict[str, Any]: ...
    def to_networkx(self) -> Any: ...

def build(
    inputs: Union[_Path, Sequence[_Path]],
    output: _Path,
    *,
    weighted: bool = False,
    format: str = "auto",
    pages: _Path = "",
    labels: _Path = "",
    order: str = "input",
    memory_budget: int = 0,
    force: bool = False,
    threads: int = 0,
) -> Tuple[Database, dict[str, Any]]: ...
def crawl(
    seeds: Union[str, Sequence[str]],
    output: _Path,
    *,
    max_pages: int = 10000,
    max_depth: int = 50,
    delay: float = 0.25,
    prefixes: Optional[Sequence[str]] = None,
    robots: bool = True,
    resume: bool = False,
    force: bool = False,
) -> Tuple[Database, dict[str, Any]]: ...

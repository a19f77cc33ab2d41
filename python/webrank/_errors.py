"""webrank's exceptions: one class per kind of library error (webrank/util/error.hpp), each also a
subclass of the built-in exception a Python user would catch for it."""

__all__ = [
    "Error", "InvalidArgumentError", "InvalidTypeError", "InvalidInputError", "NotFoundError", "ExistsError",
    "CorruptError", "IoError", "CancelledError", "ConflictError", "InternalError", "PageIdError",
    "ZeroSumError", "ConvergenceWarning", "PowerIterationFailedConvergence",
]


class Error(Exception):
    """Any error webrank reports: every exception a webrank function raises is one (bar
    KeyboardInterrupt and MemoryError). ``kind`` names it ("invalid argument", "invalid type",
    "invalid input", "not found", "exists", "corrupt", "io", "cancelled", "conflict",
    "internal", "not converged"); ``field`` is the argument it is about (a keyword argument's
    name) or None."""

    kind = None
    field = None


class InvalidArgumentError(Error, ValueError):
    """An option or argument out of range or contradictory (the CLI's exit status 2)."""

    kind = "invalid argument"


class InvalidTypeError(Error, TypeError):
    """An argument of the wrong type: a string where a number goes, a list where a page goes
    (the CLI's exit status 2)."""

    kind = "invalid type"


class InvalidInputError(Error, ValueError):
    """A malformed input file; the message names the file and the line or byte."""

    kind = "invalid input"


class NotFoundError(Error, FileNotFoundError):
    """A file, database, page, label or rank vector that does not exist."""

    kind = "not found"


class ExistsError(Error, FileExistsError):
    """An output that exists and may not be replaced (pass force=True)."""

    kind = "exists"


class CorruptError(Error):
    """A database or stored vector that fails its checks."""

    kind = "corrupt"


class IoError(Error, OSError):
    """The system refused a read or a write (permissions, a full disk)."""

    kind = "io"


class CancelledError(Error):
    """The work was stopped on request."""

    kind = "cancelled"


class ConflictError(Error):
    """The database was replaced by a new version (update, recrawl, build with force) while a
    write into it ran: nothing was written; run it again on the new version."""

    kind = "conflict"


class InternalError(Error, RuntimeError):
    """A bug in webrank."""

    kind = "internal"


class PageIdError(InvalidArgumentError, IndexError):
    """A page id outside [0, pages) (also an IndexError, as a list's index would be)."""


class ZeroSumError(InvalidArgumentError, ZeroDivisionError):
    """A personalization, nstart or dangling distribution of the drop-ins that sums to 0 (also
    the ZeroDivisionError NetworkX raises for it)."""


class ConvergenceWarning(UserWarning):
    """A ranking stopped at max_iter (or stalled at the precision's rounding level) before its
    tolerance; the vector returned is the last iterate."""


try:  # a subclass of NetworkX's, so that `except nx.PowerIterationFailedConvergence` catches it
    from networkx.exception import PowerIterationFailedConvergence as _NetworkXConvergence
except ImportError:  # pragma: no cover - NetworkX is optional
    _NetworkXConvergence = ArithmeticError


class PowerIterationFailedConvergence(Error, _NetworkXConvergence):
    """The drop-ins' power iteration did not converge within max_iter iterations: NetworkX's
    exception of the same name (a subclass of it when NetworkX is installed)."""

    kind = "not converged"

    def __init__(self, num_iterations, *args):
        Exception.__init__(self, "power iteration failed to converge within %d iterations"
                           % num_iterations, *args)
        self.num_iterations = num_iterations

"""webrank's exceptions: one class per kind of library error (webrank/util/error.hpp), each also a
subclass of the built-in exception a Python user would catch for it."""

__all__ = [
    "Error", "InvalidArgumentError", "InvalidTypeError", "InvalidInputError", "NotFoundError", "ExistsError",
    "CorruptError", "IoError", "CancelledError", "ConflictError", "InternalError", "ConvergenceWarning",
    "PowerIterationFailedConvergence",
]


class Error(Exception):
    """Any error the webrank library reports. ``kind`` names it ("invalid argument", "invalid
    input", "not found", "exists", "corrupt", "io", "cancelled", "internal"); ``field`` is the
    option it is about (a keyword argument's name) or None."""

    kind = None
    field = None


class InvalidArgumentError(Error, ValueError):
    """An option or argument out of range or contradictory (the CLI's exit status 2)."""


class InvalidTypeError(Error, TypeError):
    """An argument of the wrong type: a string where a number goes, a float page id (the CLI's
    exit status 2)."""


class InvalidInputError(Error, ValueError):
    """A malformed input file; the message names the file and the line or byte."""


class NotFoundError(Error, FileNotFoundError):
    """A file, database, page, label or rank vector that does not exist."""


class ExistsError(Error, FileExistsError):
    """An output that exists and may not be replaced (pass force=True)."""


class CorruptError(Error):
    """A database or stored vector that fails its checks."""


class IoError(Error, OSError):
    """The system refused a read or a write (permissions, a full disk)."""


class CancelledError(Error):
    """The work was stopped on request."""


class ConflictError(Error):
    """The database was replaced by a new version (update, recrawl, build with force) while a
    write into it ran: nothing was written; run it again on the new version."""


class InternalError(Error, RuntimeError):
    """A bug in webrank."""


class ConvergenceWarning(UserWarning):
    """A ranking stopped at max_iter (or stalled at the precision's rounding level) before its
    tolerance; the vector returned is the last iterate."""


try:  # NetworkX's own class, so that `except nx.PowerIterationFailedConvergence` catches ours
    from networkx.exception import PowerIterationFailedConvergence
except ImportError:  # pragma: no cover - NetworkX is optional

    class PowerIterationFailedConvergence(Error, ArithmeticError):
        """The power iteration did not converge within max_iter iterations (NetworkX's
        exception of the same name, used instead when NetworkX is installed)."""

        def __init__(self, num_iterations, *args, **kw):
            msg = "power iteration failed to converge within {} iterations"
            super().__init__(msg.format(num_iterations), *args, **kw)
            self.num_iterations = num_iterations

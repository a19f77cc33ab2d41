"""Every argument a webrank function takes, checked before it reaches the C++ extension.

Options of operations are checked by the type their declaration gives (webrank/app/options.hpp:
flag, whole, number, text, choice, texts, wholes, size, weights, batch; `_core._operations()`
carries it), by `option()`; the arguments of the rest (page ids, names, paths, edge arrays, the
drop-ins' NetworkX arguments) by the helpers below. A value of the wrong kind raises
InvalidTypeError, one of the right kind that cannot be what is meant (a fractional page id, a
lone surrogate in a string, an integer beyond 64 bits) InvalidArgumentError, each naming the
argument (`field`) and, in a list or an array, the position. What only the library can judge (a
range, a choice, a label) is passed on: its declaration refuses it with the words every front end
uses. So no argument reaches pybind11 in a form it would refuse with its own bare TypeError or
RuntimeError, nor NumPy in one it would convert with a warning.
"""
import math
import numbers
import os
from collections.abc import Mapping

import numpy as np

from ._errors import InvalidArgumentError, InvalidTypeError, PageIdError

_INT64 = (-(1 << 63), (1 << 63) - 1)
_UINT64_MAX = (1 << 64) - 1


def fail(cls, field, detail):
    """An error of class `cls` about argument `field` (None: none), worded as the library words
    its own: "FIELD DETAIL"."""
    error = cls("%s %s" % (field, detail) if field else detail)
    error.field = field
    return error


def shown(value):
    """A value as a message shows it: its type and a short repr (surrogates escaped)."""
    text = repr(value)
    if len(text) > 64:
        text = text[:61] + "..."
    return "%s %s" % (type(value).__name__, text)


def _scalar(value):
    """A NumPy scalar or 0-d array as the Python number it holds; anything else as it is."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value.item()
    if isinstance(value, np.generic):
        return value.item()
    return value


def is_integer(value):
    value = _scalar(value)
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_number(value):
    value = _scalar(value)
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def text(value, field, where=""):
    """A string that is text: refuses non-strings, lone surrogates (what os.fsdecode makes of a
    name that is not UTF-8) and NUL characters, which no label, query or file name holds.
    os.PathLike values give their path. `where` says where in a list ("at position 3")."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, np.str_):
        value = str(value)
    if not isinstance(value, str):
        raise fail(InvalidTypeError, field, "must be a string%s, got %s"
                   % (" " + where if where else "", shown(value)))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise fail(InvalidArgumentError, field,
                   "holds the lone surrogate %r at position %d%s: not text (a file name "
                   "os.fsdecode could not decode? name it in UTF-8)"
                   % (value[e.start], e.start, " of the string " + where if where else ""))
    nul = value.find("\0")
    if nul >= 0:
        raise fail(InvalidArgumentError, field, "holds a NUL character at position %d%s"
                   % (nul, " of the string " + where if where else ""))
    return value


def path(value, field):
    """A file name as the operating system takes it: str (any, surrogates included: they stand
    for the bytes os.fsdecode could not decode), bytes or os.PathLike; no NUL."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, (str, bytes)):
        raise fail(InvalidTypeError, field, "must be a path (str, bytes or os.PathLike), got %s"
                   % shown(value))
    if ("\0" if isinstance(value, str) else b"\0") in value:
        raise fail(InvalidArgumentError, field, "holds a NUL character")
    return value


def flag(value, field):
    value = _scalar(value)
    if not isinstance(value, bool):
        raise fail(InvalidTypeError, field, "must be True or False, got %s" % shown(value))
    return value


def whole(value, field, expected="a whole number", where=""):
    """An int (NumPy's too) within 64 bits, or a float for the library to judge (1.0 is taken,
    2.5 and NaN refused by the declaration's check, in its words)."""
    value = _scalar(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise fail(InvalidTypeError, field, "must be %s%s, got %s"
                   % (expected, " " + where if where else "", shown(value)))
    if isinstance(value, numbers.Integral):
        value = int(value)
        if not _INT64[0] <= value <= _UINT64_MAX:
            raise fail(InvalidArgumentError, field, "must be %s%s, got %d (beyond 64 bits)"
                       % (expected, " " + where if where else "", value))
        return value
    value = float(value)
    if math.isfinite(value) and value == int(value):
        if not _INT64[0] <= value <= _UINT64_MAX:
            raise fail(InvalidArgumentError, field, "must be %s%s, got %r (beyond 64 bits)"
                       % (expected, " " + where if where else "", value))
        return int(value)
    return value


def number(value, field, where=""):
    value = _scalar(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise fail(InvalidTypeError, field, "must be a number%s, got %s"
                   % (" " + where if where else "", shown(value)))
    try:
        return float(value)
    except OverflowError:
        raise fail(InvalidArgumentError, field, "must be a finite number%s, got an int of %d "
                   "digits" % (" " + where if where else "", len(str(abs(int(value))))))


def items(value, field, what):
    """The items of a list, tuple or 1-d array; InvalidTypeError for anything else."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise fail(InvalidArgumentError, field, "must be a one-dimensional %s, got an array "
                       "of shape %s" % (what, value.shape))
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return value
    raise fail(InvalidTypeError, field, "must be a %s, got %s" % (what, shown(value)))


def texts(value, field):
    if isinstance(value, (str, os.PathLike, np.str_)):
        return [text(value, field)]
    values = items(value, field, "list of strings")
    return [text(v, field, "at position %d" % i) for i, v in enumerate(values)]


def wholes(value, field):
    if is_integer(value) or isinstance(_scalar(value), float):
        return [whole(value, field)]
    values = items(value, field, "list of whole numbers")
    return [whole(v, field, where="at position %d" % i) for i, v in enumerate(values)]


def size(value, field):
    """A size: bytes (an int >= 0) or text with a unit ("4G"), as the declaration reads it."""
    value = _scalar(value)
    if isinstance(value, (str, os.PathLike)):
        return text(value, field)
    if is_integer(value):
        value = int(value)
        if not 0 <= value <= _UINT64_MAX:
            raise fail(InvalidArgumentError, field, "must be a size in bytes >= 0, got %d" % value)
        return value
    raise fail(InvalidTypeError, field, "must be a size (bytes as an int, or text: 4G, 512M), "
               "got %s" % shown(value))


def numbers_array(value, field, what="numbers", one_dimensional=False):
    """A float64 array of the numbers `value` holds (a sequence or an array of them): no string,
    no complex number, no object NumPy would convert with a warning or an error; of one dimension
    when `one_dimensional`."""
    a = _numbers_array(value, field, what)
    if one_dimensional and a.ndim != 1:
        raise fail(InvalidArgumentError, field, "must be one-dimensional, got shape %s"
                   % (a.shape,))
    return a


def _numbers_array(value, field, what):
    if isinstance(value, (str, bytes, Mapping)) or value is None:
        raise fail(InvalidTypeError, field, "must be an array or a list of %s, got %s"
                   % (what, shown(value)))
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as e:
        raise fail(InvalidTypeError, field, "must be an array or a list of %s (%s)" % (what, e))
    if a.dtype.kind in "fiub":
        return a.astype(np.float64, copy=False)
    if a.dtype.kind == "O":
        flat = a.reshape(-1)
        for i, v in enumerate(flat):
            if not is_number(v):
                raise fail(InvalidTypeError, field, "must hold %s, got %s at position %d"
                           % (what, shown(v), i))
        out = np.empty(flat.shape[0], dtype=np.float64)
        for i, v in enumerate(flat):
            out[i] = number(v, field, "at position %d" % i)
        return out.reshape(a.shape)
    raise fail(InvalidTypeError, field, "must hold %s, got an array of dtype %s" % (what, a.dtype))


def page_ids(value, field, name=None):
    """A one-dimensional int64 array of page ids: ints, or floats with whole values (a
    fractional, infinite or NaN id is refused with its position, not truncated). `name` says
    which part of argument `field` the array is, in messages (default: the field)."""

    def refuse(cls, detail):
        error = cls("%s %s" % (name or field, detail))
        error.field = field
        return error

    if isinstance(value, (str, bytes, Mapping)) or value is None:
        raise refuse(InvalidTypeError, "must be an array of page ids (whole numbers), got %s"
                     % shown(value))
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as e:
        raise refuse(InvalidTypeError, "must be an array of page ids (%s)" % e)
    if a.ndim != 1:
        raise refuse(InvalidArgumentError, "must be a one-dimensional array of page ids, got "
                     "shape %s" % (a.shape,))
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    kind = a.dtype.kind
    if kind == "O":
        for i, v in enumerate(a):
            if not is_number(v):
                raise refuse(InvalidTypeError, "must hold page ids (whole numbers), got %s at "
                             "position %d" % (shown(v), i))
        if all(is_integer(v) for v in a):
            ints = [int(_scalar(v)) for v in a]
            for i, v in enumerate(ints):
                if not _INT64[0] <= v <= _INT64[1]:
                    raise refuse(InvalidArgumentError, "must hold page ids, got %d at position %d "
                                 "(beyond 64 bits)" % (v, i))
            return np.array(ints, dtype=np.int64)
        a = np.array([float(_scalar(v)) for v in a], dtype=np.float64)
        kind = "f"
    if kind == "u":
        if a.dtype.itemsize == 8 and int(a.max()) > _INT64[1]:
            i = int(np.argmax(a > _INT64[1]))
            raise refuse(InvalidArgumentError, "must hold page ids, got %d at position %d "
                         "(beyond 64 bits)" % (a[i], i))
        return a.astype(np.int64, copy=False)
    if kind == "i":
        return a.astype(np.int64, copy=False)
    if kind == "f":
        bad = ~np.isfinite(a)
        with np.errstate(invalid="ignore"):
            bad |= np.floor(a) != a
            bad |= (a < -2.0 ** 63) | (a >= 2.0 ** 63)
        if bad.any():
            i = int(np.argmax(bad))
            raise refuse(InvalidArgumentError, "must hold whole page ids, got %r at position %d "
                         "(ids are not rounded)" % (float(a[i]), i))
        return a.astype(np.int64)
    raise refuse(InvalidTypeError, "must hold page ids (whole numbers), got an array of dtype %s"
                 % a.dtype)


def page_id(value, field, pages):
    """One page id in [0, pages): an int, or a float with a whole value."""
    value = _scalar(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise fail(InvalidTypeError, field, "must be a page id (a whole number), got %s"
                   % shown(value))
    if not isinstance(value, numbers.Integral):
        if not math.isfinite(value) or value != int(value):
            raise fail(InvalidArgumentError, field, "must be a whole page id, got %r" % value)
    value = int(value)
    if not 0 <= value < pages:
        raise fail(PageIdError, field, "must be a page id in [0, %d), got %d" % (pages, value))
    return value


def callback(value):
    if value is not None and not callable(value):
        raise fail(InvalidTypeError, "callback", "must be callable as callback(iteration, "
                   "delta), got %s" % shown(value))
    return value


def weights(value, field):
    """Per-page weights as the library takes them: a file, labels, {label: weight}, or one
    number per page."""
    if isinstance(value, (str, os.PathLike, np.str_)):
        return text(value, field)
    if isinstance(value, Mapping) and not value or isinstance(value, (list, tuple)) and not value:
        raise fail(InvalidArgumentError, field, "names no page: give None for the default")
    if isinstance(value, Mapping):
        out = {}
        for key, w in value.items():
            label = text(key, field, "(a key)")
            out[label] = number(w, field, "(the weight of %r)" % label)
        return out
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiubO":
        if value.ndim != 1:
            raise fail(InvalidArgumentError, field, "must be one number per page, got an array "
                       "of shape %s" % (value.shape,))
        return numbers_array(value, field)
    values = items(value, field, "file, a list of pages, {page: weight} or an array")
    if values and all(isinstance(v, (str, np.str_)) for v in values):
        return [text(v, field, "at position %d" % i) for i, v in enumerate(values)]
    if all(is_number(v) for v in values):
        return numbers_array(values, field)
    i = next(i for i, v in enumerate(values) if not isinstance(v, (str, np.str_)))
    raise fail(InvalidTypeError, field, "must be a list of pages (strings) or of numbers, got "
               "%s at position %d" % (shown(values[i]), i))


def batch(value, field):
    """A batch: a file of NAME [PAGE...] lines, or the lines themselves as lists of fields."""
    if isinstance(value, (str, os.PathLike, np.str_)):
        return text(value, field)
    rows = items(value, field, "file or a list of [NAME, PAGE...] lists")
    out = []
    for i, row in enumerate(rows):
        fields = items(row, field, "list of [NAME, PAGE...] lists (line %d)" % i)
        if not fields:
            raise fail(InvalidArgumentError, field, "line %d is empty: it needs a NAME" % i)
        out.append([text(f, field, "(line %d, field %d)" % (i, j)) for j, f in enumerate(fields)])
    return out


_BY_TYPE = {
    "flag": flag,
    "whole": whole,
    "number": number,
    "text": text,
    "choice": text,
    "texts": texts,
    "wholes": wholes,
    "size": size,
    "weights": weights,
    "batch": batch,
}


def option(spec, value):
    """`value` of the option `spec` declares (an entry of an operation's "options"), in the form
    the extension takes: None (not given) as it is."""
    if value is None:
        return None
    return _BY_TYPE[spec["type"]](value, spec["name"])


def unknown(name, known, where):
    """The error for a keyword the function does not take, naming the nearest one (as the
    library's "unknown option" does); a TypeError, as Python's own for such a call."""
    import difflib

    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return fail(InvalidTypeError, None, "%s: unknown keyword argument '%s'%s"
                % (where, name, "; did you mean '%s'?" % near[0] if near else ""))


def options(specs, values, where):
    """Every value of `values` (name -> value) checked by its spec in `specs` (or an alias of
    it). `where` names the call in the error for a name no spec declares ("rank()")."""
    by_name = {}
    for s in specs:
        by_name[s["name"]] = s
        for a in s["aliases"]:
            by_name[a] = s
    out = {}
    for name, value in values.items():
        spec = by_name.get(name)
        if spec is None:
            raise unknown(name, [s["name"] for s in specs], where)
        out[name] = option(spec, value)
    return out

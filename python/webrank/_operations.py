"""The operations of webrank's app layer as Python functions and Database methods.

Every operation is declared once, in C++ (src/app/), with its options' names, types, defaults,
ranges and help; _core._operations() lists them and this module makes one Python function per
operation from that list: its parameters (positional as the command line's positionals, the rest
keyword-only), its defaults, its docstring. A call converts the keywords to the JSON the
operation takes, runs it without the GIL (Ctrl-C stops it), and returns its JSON form as Python
objects: the same JSON `webrank NAME --json` prints and the server's /api/v1/NAME answers.
"""
import inspect
import keyword
import warnings

from . import _arguments, _core
from ._errors import ConvergenceWarning, InvalidTypeError

# Python names of operations whose own name is taken by an attribute of Database (the arrays
# `ranks(name)` and `backlinks(id)`, the count `links`), is not an identifier, or was the
# method's name before operations were one table.
PYTHON_NAMES = {
    "ranks": "vectors",
    "backlinks": "backlinks_by_rank",
    "links": "links_by_rank",
    "index": "build_index",
    "seeds": "propose_seeds",
    "import": "import_graph",
}

# The annotation of each declared type (the stubs' names: python/webrank/__init__.pyi); a choice
# is the Literal of its choices.
_TYPES = {"flag": "bool", "whole": "int", "number": "float", "text": "str", "choice": "str",
          "texts": "Sequence[str]", "wholes": "Sequence[int]", "size": "Union[int, str]",
          "weights": "_PageWeights", "batch": "_Batch"}


def annotation(spec):
    if spec["type"] == "choice" and spec["choices"]:
        return "Literal[%s]" % ", ".join(repr(c) for c in spec["choices"])
    return _TYPES[spec["type"]]


def python_name(op_name):
    name = PYTHON_NAMES.get(op_name, op_name.replace("-", "_"))
    return name + "_" if keyword.iskeyword(name) else name


def parameters(op):
    """inspect.Parameters of an operation: positionals first, in order, then keywords."""
    specs = op["options"]
    positional = sorted((s for s in specs if s["position"] >= 0), key=lambda s: s["position"])
    if not positional and specs:
        # An operation the command line gives only options takes its first one by position
        # too (db.top(5), db.trust(seeds), db.propose_seeds(10)).
        positional = [dict(specs[0], position=0)]
    params = []
    for s in positional:
        default = inspect.Parameter.empty if s["required"] else s["default"]
        params.append(inspect.Parameter(s["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=default, annotation=annotation(s)))
    taken = {s["name"] for s in positional}
    for s in specs:
        if s["name"] in taken:
            continue
        default = s["default"]
        if s["required"]:
            default = inspect.Parameter.empty
        params.append(inspect.Parameter(s["name"], inspect.Parameter.KEYWORD_ONLY, default=default,
                                        annotation=annotation(s)))
    return params


def keywords(specs, exclude=(), defaults=None):
    """Keyword-only inspect.Parameters of `specs` but those named in `exclude`, with `defaults`
    (name -> value) instead of the declared ones: the keywords of a function written by hand
    over an operation (Database.rank, rank_batch, trust; webrank.rank)."""
    defaults = defaults or {}
    return [inspect.Parameter(s["name"], inspect.Parameter.KEYWORD_ONLY,
                              default=defaults.get(s["name"], s["default"]),
                              annotation=annotation(s))
            for s in specs if s["name"] not in exclude]


def declare(fn, params, returns, on_database=True):
    """Gives `fn`, written by hand over an operation, the signature its declaration makes:
    `params` (inspect.Parameters, `self` first for a method), returning `returns` (the stubs'
    annotation). help() shows it; python/make_stubs.py writes its stub from it."""
    self = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] if on_database \
        else []
    fn.__signature__ = inspect.Signature(self + params, return_annotation=returns)
    fn._stub_returns = returns
    return fn


def docstring(op):
    lines = [op["summary"] + " (`webrank %s`; docs/cli.md)." % op["name"], ""]
    for s in op["options"]:
        extra = []
        if s["choices"]:
            extra.append("one of " + ", ".join(s["choices"]))
        if s["range"]:
            extra.append(s["range"])
        if s["aliases"]:
            extra.append("also " + ", ".join(s["aliases"]))
        lines.append("%s: %s%s" % (s["name"], s["help"], " (%s)" % "; ".join(extra) if extra else ""))
    lines += ["", "Returns the operation's JSON form as Python objects (webrank %s --json)."
              % op["name"]]
    return "\n".join(lines)


def report(result, arrays, said_warnings, not_converged, errors, stacklevel=3):
    """The notices of a call, as Python warnings."""
    for w in said_warnings:
        warnings.warn(w, ConvergenceWarning if not_converged else UserWarning,
                      stacklevel=stacklevel)
    for e in errors:
        warnings.warn(e, RuntimeWarning, stacklevel=stacklevel)
    return result


def make_function(op, on_database):
    """A function (a Database method when on_database) running operation `op`."""
    params = parameters(op)
    names = {p.name for p in params}
    aliases = {a: s["name"] for s in op["options"] for a in s["aliases"]}
    signature = inspect.Signature(
        ([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] if on_database
         else []) + params)
    op_name = op["name"]

    where = ("Database." if on_database else "") + python_name(op_name) + "()"

    def call(*args, callback=None, _arrays=False, **kwargs):
        for alias, name in aliases.items():
            if alias in kwargs:
                kwargs[name] = kwargs.pop(alias)
        unknown = [k for k in kwargs if k not in names]
        if unknown:
            raise _arguments.unknown(unknown[0], sorted(names), where)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise _arguments.fail(InvalidTypeError, None, "%s: %s" % (where, e)) from None
        values = dict(bound.arguments)
        _arguments.callback(callback)
        if on_database:
            self = values.pop("self")
            out = self._call(op_name, _arguments.options(op["options"], values, where), callback)
        else:
            out = _core._call(op_name, _arguments.options(op["options"], values, where), callback)
        result = report(*out)
        # The vectors the call computed too, by name: what Database.rank returns as arrays.
        return (result, out[1]) if _arrays else result

    call.__name__ = python_name(op_name)
    call.__qualname__ = ("Database." if on_database else "") + call.__name__
    call.__doc__ = docstring(op)
    call.__signature__ = signature
    call._names = names
    return call


def operations():
    return _core._operations()

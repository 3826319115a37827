"""While the sweep is connected to a cluster by address, the pickles Dask
reads from its peers may name plain builtin types and a short list of
classes, and nothing else.

Why: Dask unpickles what the scheduler and the workers send (results,
errors, the type of a result), and a pickle can name any function to call
as it is read: a worker started with a hostile ``--preload`` could then run
a command as the person sweeping. Dask cannot be told to refuse pickles
(dask/distributed issues #2051 and #9283), so here every place Dask's
client reads one goes through ``restricted_loads`` instead: the chunk
results are plain values (``engine.sim.plain``), and what else legitimately
comes back is an exception of a known class. A pickle naming anything else
is refused (``RefusedPickle``), and the refusal is kept so the sweep can say
so in one line rather than report whatever Dask made of it.

The places, read from distributed's source (checked by
tests/sweep/test_dask_faults.py): ``distributed.protocol.pickle.loads``,
which its message decoding, its serializers and its error messages call by
that name; the copy ``distributed.client`` imported as ``loads``; and the
standard ``pickle`` module ``distributed.client`` reads warnings with.
"""

from __future__ import annotations

import builtins
import io
import pickle
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, Final

# Builtin types a message may hold: data only, none runs code as it is built.
_PLAIN: Final = frozenset({"list", "dict", "tuple", "set", "frozenset", "str", "bytes", "bytearray", "int", "float", "complex", "bool", "slice", "range", "NoneType"})
_EXCEPTIONS: Final = frozenset(name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException))
# Classes Dask or the kit send back when a task fails or the cluster gives up:
# building one keeps its message and runs nothing.
_CLASSES: Final = frozenset(
    {
        ("distributed.scheduler", "KilledWorker"),
        ("distributed.client", "FutureCancelledError"),
        ("distributed.comm.core", "CommClosedError"),
        ("distributed.core", "RPCClosed"),
        ("distributed.worker", "Reschedule"),
        ("asyncio.exceptions", "CancelledError"),
        ("asyncio.exceptions", "TimeoutError"),
        ("concurrent.futures._base", "CancelledError"),
        ("concurrent.futures._base", "TimeoutError"),
        ("engine.errors", "UsageError"),
        ("engine.errors", "ConfigurationError"),
        ("engine.sim.plain", "BadChunk"),
        ("engine.sweep.dask_runner", "ClusterFailed"),
    }
)
# Dask pickles a failed task's exception and traceback with tblib, whose
# readers set any attribute and build code objects: they are read here by
# readers of our own, which make an exception of an allowed class with its
# arguments and cause, and no traceback at all (Dask accepts None).
_TBLIB: Final = "tblib.pickling_support"
# The parts of a traceback tblib pickles; read as inert stand-ins, then dropped.
_TRACEBACK_PARTS: Final = frozenset({("tblib", "Frame"), ("tblib", "Code"), ("tblib", "Traceback"), ("tblib", "_AttrDict")})


class RefusedPickle(pickle.UnpicklingError, TypeError):
    """A peer sent a pickle naming something other than plain data. (A
    TypeError too: that is what Dask expects of a traceback it cannot read.)"""


class _Discarded(dict[Any, Any]):
    """What a part of a traceback is read as: data that nothing reads."""


def _no_traceback(*args: object, **kwargs: object) -> None:
    return None


def _failure(kind: object, args: object, cause: object) -> BaseException:
    """An exception of the allowed class ``kind`` made of ``args``."""
    if not (isinstance(kind, type) and issubclass(kind, BaseException)) or not isinstance(args, tuple):
        raise RefusedPickle("a pickle from the cluster makes something other than an exception")
    failure = kind.__new__(kind, *args)
    failure.args = args
    if isinstance(cause, BaseException):
        failure.__cause__ = cause
    return failure


def _exception(kind: object, args: object, cause: object, *rest: object, **more: object) -> BaseException:
    return _failure(kind, args, cause)


def _exception_with_attrs(kind: object, attrs: object, cause: object, *rest: object, **more: object) -> BaseException:
    args = attrs.get("args", ()) if isinstance(attrs, dict) else ()
    return _failure(kind, args, cause)


_TBLIB_READERS: Final[dict[str, Any]] = {"unpickle_traceback": _no_traceback, "unpickle_exception": _exception, "unpickle_exception_with_attrs": _exception_with_attrs}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and (name in _PLAIN or name in _EXCEPTIONS):
            return super().find_class(module, name)
        if (module, name) in _CLASSES:
            return super().find_class(module, name)
        if module == _TBLIB and name in _TBLIB_READERS:
            return _TBLIB_READERS[name]
        if (module, name) in _TRACEBACK_PARTS:
            return _Discarded
        refusals.append(f"{module}.{name}"[:120])
        raise RefusedPickle(f"a pickle from the cluster names {module}.{name}, which is not plain data")

    def persistent_load(self, pid: object) -> Any:
        refusals.append("a persistent id")
        raise RefusedPickle("a pickle from the cluster holds a persistent id")


# What was refused since the last ``restricted()`` began (one process, one sweep).
refusals: list[str] = []


def restricted_loads(data: bytes | bytearray | memoryview, *, buffers: Any = ()) -> Any:
    """``pickle.loads`` that builds plain data and the classes above only."""
    return _Unpickler(io.BytesIO(data), buffers=buffers or ()).load()


_LOCK = threading.Lock()


@contextmanager
def restricted() -> Iterator[list[str]]:
    """Dask's client reads pickles with ``restricted_loads`` inside; yields
    the list of what it refused (empty if nothing was)."""
    import distributed.client
    import distributed.protocol.pickle

    protocol: Any = distributed.protocol.pickle
    client: Any = distributed.client  # its ``loads`` and ``pickle`` are imported names, not exported
    with _LOCK:
        saved = (protocol.loads, client.loads, client.pickle)
        refusals.clear()
        protocol.loads = client.loads = restricted_loads
        client.pickle = SimpleNamespace(loads=restricted_loads)
        try:
            yield refusals
        finally:
            protocol.loads, client.loads, client.pickle = saved

# warnings, written in the script language: warn prints "FILE:LINE: Category: message" to stderr
# once per place and message (Python's default filter), simplefilter / filterwarnings with
# "ignore", "always", "error" and "default", and catch_warnings. _caller and _write come from the
# interpreter.

_filters = []
_seen = set()


def simplefilter(action, category=Warning, lineno=0, append=False):
    entry = (action, category)
    if append:
        _filters.append(entry)
    else:
        _filters.insert(0, entry)


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    simplefilter(action, category, lineno, append)


def resetwarnings():
    _filters.clear()


def _action(category):
    for action, cat in _filters:
        if issubclass(category, cat):
            return action
    return "default"


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
        text = str(message)
    else:
        category = UserWarning if category is None else category
        text = str(message)
    action = _action(category)
    if action == "ignore":
        return
    if action == "error":
        raise category(text)
    filename, lineno, line, _ = _caller(stacklevel + 1)
    key = (text, category.__name__, filename, lineno)
    if action != "always" and key in _seen:
        return
    _seen.add(key)
    out = "%s:%d: %s: %s\n" % (filename, lineno, category.__name__, text)
    if line:
        out += "  %s\n" % line
    _write(2, out)


class catch_warnings:
    def __init__(self, *, record=False):
        self._record = record

    def __enter__(self):
        self._saved = list(_filters)
        return [] if self._record else None

    def __exit__(self, *exc):
        _filters[:] = self._saved
        return False

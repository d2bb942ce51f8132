# logging, written in the script language for training scripts: loggers by name with levels and
# propagation to the root, StreamHandler (to sys.stderr or sys.stdout), Formatter with %-style
# fields (name, levelname, levelno, message, asctime, filename, lineno, funcName, module),
# basicConfig, and Python's last-resort output (the bare message at WARNING and above) when
# nothing is configured. _caller comes from the interpreter.
import sys as _sys
import time as _time

CRITICAL = 50
FATAL = CRITICAL
ERROR = 40
WARNING = 30
WARN = WARNING
INFO = 20
DEBUG = 10
NOTSET = 0
_names = {CRITICAL: "CRITICAL", ERROR: "ERROR", WARNING: "WARNING", INFO: "INFO", DEBUG: "DEBUG", NOTSET: "NOTSET"}
_levels = {v: k for k, v in _names.items()}
_levels["WARN"] = WARNING
_levels["FATAL"] = CRITICAL
BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s"


def getLevelName(level):
    if isinstance(level, int):
        return _names.get(level, "Level %d" % level)
    return _levels.get(level, "Level %s" % level)


def addLevelName(level, name):
    _names[level] = name
    _levels[name] = level


def _check_level(level):
    if isinstance(level, int):
        return level
    if level in _levels:
        return _levels[level]
    raise ValueError("Unknown level: %r" % level)


class LogRecord:
    def __init__(self, name, level, pathname, lineno, msg, args, func=None):
        self.name = name
        self.levelno = level
        self.levelname = getLevelName(level)
        self.pathname = pathname
        self.filename = pathname.split("/")[-1]
        self.module = self.filename[:-3] if self.filename.endswith(".py") else self.filename
        self.lineno = lineno
        self.msg = msg
        self.args = args
        self.funcName = func
        self.created = _time.time()
        self.msecs = int((self.created - int(self.created)) * 1000)
        self.process = 1
        self.thread = 1
        self.threadName = "MainThread"
        self.processName = "MainProcess"

    def getMessage(self):
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg


class Formatter:
    default_time_format = "%Y-%m-%d %H:%M:%S"
    default_msec_format = "%s,%03d"

    def __init__(self, fmt=None, datefmt=None, style="%"):
        if style != "%":
            raise ValueError("model scripts support %-style logging formats")
        self._fmt = fmt if fmt is not None else "%(message)s"
        self.datefmt = datefmt

    def formatTime(self, record, datefmt=None):
        if datefmt:
            return _time.strftime(datefmt, record.created)
        return self.default_msec_format % (_time.strftime(self.default_time_format, record.created), record.msecs)

    def usesTime(self):
        return "%(asctime)" in self._fmt

    def format(self, record):
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        fields = {
            "name": record.name, "levelname": record.levelname, "levelno": record.levelno, "message": record.message,
            "pathname": record.pathname, "filename": record.filename, "module": record.module, "lineno": record.lineno,
            "funcName": record.funcName, "created": record.created, "msecs": record.msecs, "process": record.process,
            "thread": record.thread, "threadName": record.threadName, "processName": record.processName,
        }
        if self.usesTime():
            fields["asctime"] = record.asctime
        return self._fmt % fields


class Handler:
    def __init__(self, level=NOTSET):
        self.level = _check_level(level)
        self.formatter = None

    def setLevel(self, level):
        self.level = _check_level(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def format(self, record):
        return (self.formatter or _default_formatter).format(record)

    def handle(self, record):
        if record.levelno >= self.level:
            self.emit(record)

    def emit(self, record):
        raise NotImplementedError("emit must be implemented by Handler subclasses")

    def flush(self):
        pass

    def close(self):
        pass


class StreamHandler(Handler):
    terminator = "\n"

    def __init__(self, stream=None):
        super().__init__()
        self.stream = stream if stream is not None else _sys.stderr

    def emit(self, record):
        self.stream.write(self.format(record) + self.terminator)


class FileHandler(StreamHandler):
    def __init__(self, filename, mode="a", encoding=None, delay=False):
        raise PermissionError("logging.FileHandler is not available in model scripts: a model script cannot write files")


class NullHandler(Handler):
    def emit(self, record):
        pass


_default_formatter = Formatter()


class Logger:
    def __init__(self, name, level=NOTSET):
        self.name = name
        self.level = _check_level(level)
        self.parent = None
        self.propagate = True
        self.handlers = []
        self.disabled = False

    def setLevel(self, level):
        self.level = _check_level(level)

    def getEffectiveLevel(self):
        logger = self
        while logger is not None:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        return not self.disabled and level >= self.getEffectiveLevel()

    def addHandler(self, h):
        if h not in self.handlers:
            self.handlers.append(h)

    def removeHandler(self, h):
        if h in self.handlers:
            self.handlers.remove(h)

    def hasHandlers(self):
        logger = self
        while logger is not None:
            if logger.handlers:
                return True
            logger = logger.parent if logger.propagate else None
        return False

    def getChild(self, suffix):
        return getLogger(suffix if self is root else self.name + "." + suffix)

    def _log(self, level, msg, args, stacklevel=1):
        path, line, _, func = _caller(stacklevel + 2)
        record = LogRecord(self.name, level, path, line, msg, args, func)
        found = 0
        logger = self
        while logger is not None:
            for h in logger.handlers:
                found += 1
                h.handle(record)
            logger = logger.parent if logger.propagate else None
        if not found and level >= WARNING:
            _sys.stderr.write(record.getMessage() + "\n")

    def log(self, level, msg, *args, stacklevel=1, **kwargs):
        if self.isEnabledFor(level):
            self._log(level, msg, args, stacklevel)

    def debug(self, msg, *args, stacklevel=1, **kwargs):
        if self.isEnabledFor(DEBUG):
            self._log(DEBUG, msg, args, stacklevel)

    def info(self, msg, *args, stacklevel=1, **kwargs):
        if self.isEnabledFor(INFO):
            self._log(INFO, msg, args, stacklevel)

    def warning(self, msg, *args, stacklevel=1, **kwargs):
        if self.isEnabledFor(WARNING):
            self._log(WARNING, msg, args, stacklevel)

    warn = warning

    def error(self, msg, *args, stacklevel=1, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, stacklevel)

    def exception(self, msg, *args, stacklevel=1, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, stacklevel)

    def critical(self, msg, *args, stacklevel=1, **kwargs):
        if self.isEnabledFor(CRITICAL):
            self._log(CRITICAL, msg, args, stacklevel)

    fatal = critical

    def __repr__(self):
        return "<%s %s (%s)>" % (type(self).__name__, self.name, getLevelName(self.getEffectiveLevel()))


class RootLogger(Logger):
    def __init__(self, level):
        super().__init__("root", level)

    def __repr__(self):
        return "<RootLogger root (%s)>" % getLevelName(self.getEffectiveLevel())


root = RootLogger(WARNING)
_loggers = {}


def getLogger(name=None):
    if not name or name == "root":
        return root
    if name in _loggers:
        return _loggers[name]
    logger = Logger(name)
    _loggers[name] = logger
    # the nearest existing ancestor is the parent; existing children of this name move under it
    parent = root
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        p = ".".join(parts[:i])
        if p in _loggers:
            parent = _loggers[p]
            break
    logger.parent = parent
    for other_name, other in _loggers.items():
        if other_name.startswith(name + ".") and (other.parent is parent):
            other.parent = logger
    return logger


def basicConfig(*, level=None, format=None, datefmt=None, stream=None, handlers=None, force=False, filename=None,
                style="%"):
    if filename is not None:
        raise PermissionError("logging.basicConfig(filename=...) is not available in model scripts: a model script cannot write files")
    if force:
        root.handlers = []
    if not root.handlers:
        hs = handlers if handlers is not None else [StreamHandler(stream)]
        fmt = Formatter(format if format is not None else BASIC_FORMAT, datefmt, style)
        for h in hs:
            if h.formatter is None:
                h.setFormatter(fmt)
            root.addHandler(h)
    if level is not None:
        root.setLevel(level)


def _module_log(level, msg, args):
    if not root.handlers:
        basicConfig()
    if root.isEnabledFor(level):
        root._log(level, msg, args, 2)


def debug(msg, *args, **kwargs):
    _module_log(DEBUG, msg, args)


def info(msg, *args, **kwargs):
    _module_log(INFO, msg, args)


def warning(msg, *args, **kwargs):
    _module_log(WARNING, msg, args)


warn = warning


def error(msg, *args, **kwargs):
    _module_log(ERROR, msg, args)


def exception(msg, *args, **kwargs):
    _module_log(ERROR, msg, args)


def critical(msg, *args, **kwargs):
    _module_log(CRITICAL, msg, args)


def log(level, msg, *args, **kwargs):
    _module_log(level, msg, args)


def disable(level=CRITICAL):
    root.disabled_level = level


def captureWarnings(capture):
    pass

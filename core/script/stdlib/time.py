# time, written in the script language over the interpreter's clocks: time, perf_counter,
# monotonic, process_time and sleep (bounded by the run's --timeout like any other wait).
# _clock comes from the interpreter.


def time():
    return _clock(0)


def time_ns():
    return int(_clock(0) * 1e9)


def perf_counter():
    return _clock(1)


def perf_counter_ns():
    return int(_clock(1) * 1e9)


def monotonic():
    return _clock(1)


def process_time():
    return _clock(2)


def sleep(seconds):
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    _clock(3, seconds)


def strftime(format, t=None):
    return _strftime(format, time() if t is None else t, True)


def gmtime_strftime(format, t=None):
    return _strftime(format, time() if t is None else t, False)

# covers: global statement, module-level state read and written from functions
import torch

torch.manual_seed(0)
counter = 0
log = []
STEP = 5


def bump():
    global counter
    counter += 1
    return counter


def reset(value=0):
    global counter, log
    counter = value
    log = ["reset"]


def record(msg):
    log.append(msg)  # mutation needs no global


def read_only():
    return counter * STEP


bump()
bump()
print(counter, read_only())
record("a")
record("b")
print(log)
reset(10)
print(counter, log)
bump()
print(counter, read_only())


def define_new():
    global created
    created = "made inside a function"


define_new()
print(created)


def shadow():
    counter = -1
    return counter


print(shadow(), counter)

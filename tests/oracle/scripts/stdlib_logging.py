# logging as training scripts use it: named loggers and levels, basicConfig with a %-format to
# stdout, propagation to the root, a handler of its own, and the last-resort message to stderr.
import logging
import sys

log = logging.getLogger("train")
log.warning("no handlers: %d steps", 3)
log.info("not shown")
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(filename)s:%(lineno)d %(funcName)s %(message)s", stream=sys.stdout)


def step(i):
    log.info("step %d loss %.3f", i, 1.0 / (i + 1))


for i in range(2):
    step(i)
child = logging.getLogger("train.data")
child.debug("hidden")
child.setLevel(logging.DEBUG)
child.debug("shown %s", "now")
logging.info("root info")
logging.warning("root warning")
print(log.getEffectiveLevel(), child.getEffectiveLevel(), logging.getLevelName(30), logging.getLevelName("ERROR"))
print(log, child.parent is log, logging.getLogger() is logging.root)
h = logging.StreamHandler(sys.stdout)
h.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
quiet = logging.getLogger("quiet")
quiet.propagate = False
quiet.addHandler(h)
quiet.error("only once: %s", "ok")
quiet.setLevel(logging.ERROR)
quiet.warning("filtered")

# expect: exit=1 stderr="ValueError: generator already executing"
def g():
    yield next(me)
me = g()
next(me)

# expect: exit=1 stderr="RecursionError: maximum recursion depth exceeded"
def ping(n):
    return pong(n + 1)


def pong(n):
    return ping(n + 1)


ping(0)

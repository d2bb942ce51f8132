# expect: exit=1 stderr="KeyError: 'second'"
try:
    raise ValueError("first")
except ValueError:
    {}["second"]

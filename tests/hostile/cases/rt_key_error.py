# expect: exit=1 stderr="KeyError: 'missing'"
cfg = {"lr": 0.1}
print(cfg["missing"])

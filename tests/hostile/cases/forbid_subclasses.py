# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(__class__|__base__|__subclasses__)\b"
subs = ().__class__.__base__.__subclasses__()
print(len(subs))

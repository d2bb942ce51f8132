# expect: exit=0 stdout="ValueError\nValueError\n"
# a package whose __init__ raised is not left half-loaded: the second import runs it again
for _ in range(2):
    try:
        import importable.raises_on_init
    except ValueError as e:
        print(type(e).__name__)

# expect: exit=1 stderr="NotImplementedError: bytes literals are not supported in model scripts"
# Fuselab has no bytes type: a function holding a bytes literal can be defined (library readers
# of file formats do), and evaluating the literal is a clear error.
def magic_ok(header):
    return header == b"PIEH"


print("defined")
magic_ok("x")

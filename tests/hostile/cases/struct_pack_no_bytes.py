# expect: exit=1 stderr="TypeError: struct.pack needs bytes, which model scripts do not have in Fuselab"
import struct
print(struct.calcsize("<if"))
struct.pack("<if", 1, 2.0)

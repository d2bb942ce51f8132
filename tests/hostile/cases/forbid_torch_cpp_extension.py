# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(utils|cpp_extension|load_inline)\b"
import torch
mod = torch.utils.cpp_extension.load_inline('m', cpp_sources='int f() { return 1; }', functions=['f'])
print(mod)

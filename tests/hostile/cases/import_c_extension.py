# expect: exit=1 stderr="compiled extension module" stderr_re="importable\.ext_user\._speedups.*imported through importable\.ext_user \(.*import_c_extension\.py:3\) -> importable\.ext_user\._speedups \(.*__init__\.py:1\)"
import torch
import importable.ext_user

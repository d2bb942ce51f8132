# expect: exit=0 stdout="3\n"
# sys.path is where imports look: a folder put there is searched
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "importable"))
import self_import_target
print(self_import_target.VALUE)

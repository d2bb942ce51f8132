# expect: exit=1 stderr="No module named 'importable.not_there'"
import importable.not_there

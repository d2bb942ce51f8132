# expect: exit=1 stderr="attempted relative import with no known parent package"
from . import helpers

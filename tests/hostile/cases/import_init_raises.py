# expect: exit=1 stderr="this package refuses to load"
import importable.raises_on_init

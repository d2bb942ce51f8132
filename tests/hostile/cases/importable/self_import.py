import importable.self_import as me

VALUE = 3

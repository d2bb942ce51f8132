# expect: exit=1 stderr="SyntaxError: nonlocal declaration not allowed at module level"
nonlocal x

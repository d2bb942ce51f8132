# expect: exit=1 stderr="TypeError: exceptions must derive from BaseException"
raise 5

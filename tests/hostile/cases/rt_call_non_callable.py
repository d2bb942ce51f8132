# expect: exit=1 stderr="TypeError: 'int' object is not callable"
lr = 5
lr()

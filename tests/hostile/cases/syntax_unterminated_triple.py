# expect: exit=1 stderr="SyntaxError: unterminated triple-quoted string literal"
x = 1
doc = """never closed
print(x)

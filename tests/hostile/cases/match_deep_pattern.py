# expect: exit=0 stdout="deep 150 7\nno match\n"
# A pattern nested 150 levels deep (the parser allows 200 brackets) matched against data as deep:
# the matcher recurses once per level, well within the stack, and binds the innermost item.
v = 7
for i in range(150):
    v = [v]
w = 7
for i in range(149):
    w = [w]
for subject in (v, w):
    match subject:
        case [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]:
            print("deep", 150, x)
        case _:
            print("no match")

# expect: exit=1 stderr="KeyError" stdout="step 0\nstep 1\n"
for i in range(3):
    print("step", i)
    if i == 1:
        {}["boom"]

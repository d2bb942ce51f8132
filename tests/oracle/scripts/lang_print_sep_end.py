# covers: print with sep and end, printing multiple values, empty print, print of mixed objects
import torch

torch.manual_seed(0)
print("a", "b", "c")
print("a", "b", "c", sep="")
print("a", "b", "c", sep=", ")
print(1, 2, 3, sep=" | ", end=" <end>\n")
print("no newline", end="")
print(" ...continued")
print()
print("x", end="-")
print("y", end="-")
print("z")
print(*range(5), sep=",")
print(*[1.5, None, True, "s"], sep="\t")
print("multi\nline")
print("", "", sep="X")
print("trailing", end="\n\n")
print("value:", 3, "list:", [1, 2], "tuple:", (3,), sep=" ")
for i in range(3):
    print(i, end=" " if i < 2 else "\n")
print(end="")
print("done", sep="ignored")

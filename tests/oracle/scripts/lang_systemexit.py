# covers: raise SystemExit(code) ends the script cleanly with that exit code (nonzero here), finally blocks still run, stdout is flushed
import torch

torch.manual_seed(0)


def main():
    total = 0
    for i in range(5):
        total += i
    print("total", total)
    try:
        if total > 5:
            raise SystemExit(3)
    finally:
        print("cleanup runs before exit")
    print("not reached")


main()
print("not reached either")

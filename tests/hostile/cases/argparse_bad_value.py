# expect: exit=2 stderr_re="usage: argparse_bad_value\.py \[-h\] \[--epochs N\]\n.*error: argument --epochs: invalid int value: 'many'"
# script-args: --epochs many
import argparse
p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=1, metavar="N")
print(p.parse_args())

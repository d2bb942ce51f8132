# expect: exit=0 stdout="Namespace(epochs=3, lr=0.5, dry_run=True)\n['--epochs', '3', '--lr=0.5', '--dry-run']\n"
# script-args: --epochs 3 --lr=0.5 --dry-run
import argparse
import sys
p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=1)
p.add_argument("--lr", type=float, default=0.1)
p.add_argument("--dry-run", action="store_true")
print(p.parse_args())
print(sys.argv[1:])

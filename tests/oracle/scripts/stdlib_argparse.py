# argparse as training scripts use it: typed options with defaults and metavars, flags, counts,
# nargs, choices, append, abbreviations, --opt=value, parse_known_args, set_defaults, help and errors.
import argparse
import sys

parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
parser.add_argument("--batch-size", type=int, default=64, metavar="N", help="input batch size for training (default: 64)")
parser.add_argument("--epochs", type=int, default=14, metavar="N", help="number of epochs to train (default: 14)")
parser.add_argument("--lr", type=float, default=1.0, metavar="LR", help="learning rate (default: 1.0)")
parser.add_argument("--no-cuda", action="store_true", default=False, help="disables CUDA training")
parser.add_argument("--dry-run", action="store_true", help="quickly check a single pass")
parser.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default: 1)")
parser.add_argument("--log-interval", type=int, default=10, metavar="N", help="how many batches to wait before logging training status")
parser.add_argument("--save-model", action="store_true", default=False, help="For Saving the current Model")
parser.add_argument("-v", "--verbose", action="count", default=0)
parser.add_argument("--layers", type=int, nargs="+", default=[1])
parser.add_argument("--act", choices=["relu", "gelu"], default="relu")
parser.add_argument("--tag", action="append")
parser.add_argument("data", nargs="?", default="data/")
args = parser.parse_args()
print(args)
print(args.batch_size, args.epochs, args.lr, args.no_cuda, args.dry_run, args.verbose, args.layers, args.act, args.tag, args.data)
print(parser.parse_args(["--epochs=3", "-vv", "--lay", "2", "3", "--tag", "a", "--tag", "b", "x"]))
print(parser.parse_args(["--lr", "0.5", "--act", "gelu", "--batch-size", "8"]))
ns, extra = parser.parse_known_args(["--epochs", "2", "--unknown", "u"])
print(ns.epochs, extra)
parser.print_help()
p2 = argparse.ArgumentParser(prog="tool")
p2.add_argument("n", type=int)
p2.add_argument("--mode", default="a")
p2.set_defaults(extra=5)
print(p2.parse_args(["7"]))
for bad in [["--epochs", "x"], ["--act", "tanh"], ["--bogus"], []]:
    try:
        (p2 if bad == [] else parser).parse_args(bad)
    except SystemExit as e:
        print("exit", e.code)

# argparse, written in the script language for training scripts: ArgumentParser with optional
# and positional arguments (store, store_true/false, store_const, append, count, help, version),
# nargs ('?', '*', '+', N), type, choices, default, required, dest and metavar, abbreviated long
# options, --opt=value, argument groups, set_defaults, parse_known_args, and CPython 3.11's usage,
# help and error texts for them. The arguments are sys.argv[1:] (fuselab run m.py -- ARGS).
import sys as _sys
import os as _os

SUPPRESS = "==SUPPRESS=="
OPTIONAL = "?"
ZERO_OR_MORE = "*"
ONE_OR_MORE = "+"
REMAINDER = "..."


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = None if argument is None else "/".join(argument.option_strings) or argument.metavar or argument.dest
        self.message = message
        super().__init__(message)

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return "argument %s: %s" % (self.argument_name, self.message)


class ArgumentTypeError(Exception):
    pass


class Namespace:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def _set(self, name, value):
        setattr(self, name, value)

    def __contains__(self, key):
        return key in self.__dict__

    def __eq__(self, other):
        return isinstance(other, Namespace) and vars(self) == vars(other)

    def __repr__(self):
        return "Namespace(%s)" % ", ".join("%s=%r" % (k, v) for k, v in self.__dict__.items())


def vars_of(ns):
    return dict(ns.__dict__)


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        pass


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    pass


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class _Action:
    def __init__(self, option_strings, dest, action, nargs=None, const=None, default=None, type=None, choices=None,
                 required=False, help=None, metavar=None, version=None):
        self.option_strings = option_strings
        self.dest = dest
        self.action = action
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar
        self.version = version


class _Group:
    def __init__(self, parser, title=None, description=None):
        self._parser = parser
        self.title = title
        self.description = description
        self._actions = []

    def add_argument(self, *args, **kwargs):
        a = self._parser.add_argument(*args, **kwargs)
        self._actions.append(a)
        self._parser._default_group._actions.remove(a)
        return a

    def add_argument_group(self, *args, **kwargs):
        return self._parser.add_argument_group(*args, **kwargs)

    def add_mutually_exclusive_group(self, required=False):
        return self


def _wrap(text, width):
    words = text.split()
    lines = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = w if not cur else cur + " " + w
    if cur:
        lines.append(cur)
    return lines


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=(), formatter_class=HelpFormatter,
                 prefix_chars="-", fromfile_prefix_chars=None, argument_default=None, conflict_handler="error",
                 add_help=True, allow_abbrev=True, exit_on_error=True):
        self.prog = prog if prog is not None else _os.path.basename(_sys.argv[0]) if _sys.argv else "script"
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.argument_default = argument_default
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self._actions = []
        self._defaults = {}
        self._positional_group = _Group(self, "positional arguments")
        self._default_group = _Group(self, "options")
        self._groups = [self._positional_group, self._default_group]
        if add_help:
            self.add_argument("-h", "--help", action="help", default=SUPPRESS, help="show this help message and exit")
        for parent in parents:
            for a in parent._actions:
                if a.action != "help":
                    self._add_action(a)

    # ---- building
    def add_argument(self, *args, dest=None, action="store", nargs=None, const=None, default=None, type=None, choices=None,
                     required=None, help=None, metavar=None, version=None):
        if not args:
            raise ValueError("add_argument needs a name or option strings")
        if not args[0].startswith("-"):
            if len(args) > 1:
                raise ValueError("invalid option string %r: must start with a character '-'" % args[1])
            if dest is not None:
                raise ValueError("dest supplied twice for positional argument")
            dest = args[0]
            option_strings = []
            if required is None:
                required = nargs not in ("?", "*")
        else:
            option_strings = list(args)
            if dest is None:
                longs = [o for o in option_strings if o.startswith("--")]
                dest = (longs[0] if longs else option_strings[0]).lstrip("-").replace("-", "_")
            if required is None:
                required = False
        if default is None and self.argument_default is not None:
            default = self.argument_default
        if action == "store_true":
            nargs, const, default = 0, True, False if default is None else default
        elif action == "store_false":
            nargs, const, default = 0, False, True if default is None else default
        elif action in ("store_const", "append_const"):
            nargs = 0
        elif action == "count":
            nargs = 0
        elif action in ("help", "version"):
            nargs = 0
            default = SUPPRESS
        elif action not in ("store", "append", "extend"):
            raise ValueError("unknown action %r" % (action,))
        if nargs == 0 and action in ("store", "append"):
            raise ValueError("nargs for store actions must be != 0; if you have nothing to store, actions such as store true or store const may be more appropriate")
        if type is not None and not callable(type):
            raise ValueError("%r is not callable" % (type,))
        a = _Action(option_strings, dest, action, nargs, const, default, type, choices, required, help, metavar, version)
        return self._add_action(a)

    def _add_action(self, a):
        for other in self._actions:
            for o in a.option_strings:
                if o in other.option_strings:
                    raise ArgumentError(a, "conflicting option string: %s" % o)
        self._actions.append(a)
        (self._positional_group if not a.option_strings else self._default_group)._actions.append(a)
        return a

    def add_argument_group(self, title=None, description=None):
        g = _Group(self, title, description)
        self._groups.append(g)
        return g

    def add_mutually_exclusive_group(self, required=False):
        return _Group(self)

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)
        for a in self._actions:
            if a.dest in kwargs:
                a.default = kwargs[a.dest]

    def get_default(self, dest):
        for a in self._actions:
            if a.dest == dest and a.default is not None:
                return a.default
        return self._defaults.get(dest, None)

    # ---- text
    def _metavar(self, a):
        if a.metavar is not None:
            return a.metavar
        if a.choices is not None:
            return "{%s}" % ",".join(str(c) for c in a.choices)
        return a.dest if not a.option_strings else a.dest.upper()

    def _args_text(self, a):
        m = self._metavar(a)
        n = a.nargs
        if n is None:
            return m
        if n == "?":
            return "[%s]" % m
        if n == "*":
            return "[%s ...]" % m
        if n == "+":
            return "%s [%s ...]" % (m, m)
        if n == "...":
            return "..."
        if n == 0:
            return ""
        return " ".join([m] * n)

    def _usage_parts(self):
        opts, pos = [], []
        for a in self._actions:
            if a.help == SUPPRESS:
                continue
            if a.option_strings:
                s = a.option_strings[0]
                t = self._args_text(a)
                part = s if not t else "%s %s" % (s, t)
                opts.append(part if a.required else "[%s]" % part)
            else:
                pos.append(self._args_text(a))
        return opts, pos

    def format_usage(self):
        if self.usage is not None:
            return "usage: %s\n" % self.usage.replace("%(prog)s", self.prog)
        opts, pos = self._usage_parts()
        prefix = "usage: "
        text_width = 78
        text = " ".join([self.prog] + opts + pos)
        if len(prefix) + len(text) <= text_width:
            return prefix + text + "\n"

        def get_lines(parts, indent, first_prefix=None):
            lines = []
            line = []
            line_len = len(first_prefix) - 1 if first_prefix is not None else len(indent) - 1
            for part in parts:
                if line_len + 1 + len(part) > text_width and line:
                    lines.append(indent + " ".join(line))
                    line = []
                    line_len = len(indent) - 1
                line.append(part)
                line_len += len(part) + 1
            if line:
                lines.append(indent + " ".join(line))
            if first_prefix is not None:
                lines[0] = lines[0][len(indent):]
            return lines

        if len(prefix) + len(self.prog) <= 0.75 * text_width:
            indent = " " * (len(prefix) + len(self.prog) + 1)
            if opts:
                lines = get_lines([self.prog] + opts, indent, prefix)
                lines.extend(get_lines(pos, indent))
            elif pos:
                lines = get_lines([self.prog] + pos, indent, prefix)
            else:
                lines = [self.prog]
        else:
            indent = " " * len(prefix)
            lines = get_lines(opts + pos, indent)
            if len(lines) > 1:
                lines = get_lines(opts, indent) + get_lines(pos, indent)
            lines = [self.prog] + lines
        return prefix + "\n".join(lines) + "\n"

    def _help_of(self, a):
        h = a.help or ""
        if "%" in h:
            params = {"prog": self.prog, "default": a.default, "dest": a.dest, "type": a.type, "choices": a.choices,
                      "metavar": a.metavar, "const": a.const, "nargs": a.nargs, "required": a.required}
            h = h % params
        return h

    def format_help(self):
        out = self.format_usage()
        if self.description:
            out += "\n" + "\n".join(_wrap(self.description, 78)) + "\n"
        for g in self._groups:
            acts = [a for a in g._actions if a.help != SUPPRESS]
            if not acts and not g.description:
                continue
            out += "\n%s:\n" % g.title
            if g.description:
                out += "  %s\n\n" % g.description
            for a in acts:
                if a.option_strings:
                    t = self._args_text(a)
                    inv = ", ".join(o if not t else "%s %s" % (o, t) for o in a.option_strings)
                else:
                    inv = self._metavar(a)
                help = self._help_of(a)
                if not help:
                    out += "  %s\n" % inv
                elif len(inv) <= 20:
                    lines = _wrap(help, 54)
                    out += "  %s%s\n" % (inv.ljust(22), lines[0] if lines else "")
                    for l in lines[1:]:
                        out += " " * 24 + l + "\n"
                else:
                    out += "  %s\n" % inv
                    for l in _wrap(help, 54):
                        out += " " * 24 + l + "\n"
        if self.epilog:
            out += "\n" + "\n".join(_wrap(self.epilog, 78)) + "\n"
        return out

    def print_usage(self, file=None):
        (file or _sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or _sys.stdout).write(self.format_help())

    def exit(self, status=0, message=None):
        if message:
            _sys.stderr.write(message)
        _sys.exit(status)

    def error(self, message):
        self.print_usage(_sys.stderr)
        self.exit(2, "%s: error: %s\n" % (self.prog, message))

    # ---- parsing
    def _find_option(self, arg):
        for a in self._actions:
            if arg in a.option_strings:
                return a
        if self.allow_abbrev and arg.startswith("--"):
            hits = [(o, a) for a in self._actions for o in a.option_strings if o.startswith(arg)]
            if len(hits) == 1:
                return hits[0][1]
            if len(hits) > 1:
                self.error("ambiguous option: %s could match %s" % (arg, ", ".join(o for o, _ in hits)))
        return None

    def _convert(self, a, s):
        if a.type is None:
            return s
        try:
            return a.type(s)
        except ArgumentTypeError as e:
            raise ArgumentError(a, str(e))
        except (TypeError, ValueError):
            name = getattr(a.type, "__name__", repr(a.type))
            raise ArgumentError(a, "invalid %s value: %r" % (name, s))

    def _check_choice(self, a, v):
        if a.choices is not None and v not in a.choices:
            raise ArgumentError(a, "invalid choice: %r (choose from %s)" % (v, ", ".join(repr(c) for c in a.choices)))

    def _values(self, a, strings):
        if a.nargs is None or a.nargs == "?" and strings:
            v = self._convert(a, strings[0])
            self._check_choice(a, v)
            return v
        if a.nargs == "?":
            return a.const if a.option_strings else a.default
        vals = [self._convert(a, s) for s in strings]
        for v in vals:
            self._check_choice(a, v)
        return vals

    def _is_option(self, s):
        if not s.startswith("-") or s == "-":
            return False
        if s == "--":
            return True
        try:
            float(s)
            return any(o.startswith("-") and o[1:2].isdigit() for a in self._actions for o in a.option_strings)
        except ValueError:
            return True

    def _take(self, a, args, i):
        """The strings an option takes from args[i:] by its nargs."""
        n = a.nargs
        if n == 0:
            return [], i
        if n is None:
            if i >= len(args) or self._is_option(args[i]):
                raise ArgumentError(a, "expected one argument")
            return [args[i]], i + 1
        if n == "?":
            if i < len(args) and not self._is_option(args[i]):
                return [args[i]], i + 1
            return [], i
        if n in ("*", "+"):
            j = i
            while j < len(args) and not self._is_option(args[j]):
                j += 1
            if n == "+" and j == i:
                raise ArgumentError(a, "expected at least one argument")
            return args[i:j], j
        if n == "...":
            return args[i:], len(args)
        if i + n > len(args) or any(self._is_option(s) for s in args[i:i + n]):
            raise ArgumentError(a, "expected %d argument%s" % (n, "" if n == 1 else "s"))
        return args[i:i + n], i + n

    def _apply(self, a, ns, strings, option):
        act = a.action
        if act == "help":
            self.print_help()
            self.exit()
        if act == "version":
            _sys.stdout.write(a.version.replace("%(prog)s", self.prog) + "\n")
            self.exit()
        if act in ("store_true", "store_false", "store_const"):
            ns._set(a.dest, a.const)
        elif act == "count":
            cur = getattr(ns, a.dest, None)
            ns._set(a.dest, (cur or 0) + 1)
        elif act == "append_const":
            cur = getattr(ns, a.dest, None)
            ns._set(a.dest, (list(cur) if cur else []) + [a.const])
        elif act in ("append", "extend"):
            cur = getattr(ns, a.dest, None)
            v = self._values(a, strings)
            add = v if (act == "extend" or isinstance(v, list) and a.nargs not in (None, "?")) else [v]
            if act == "append" and a.nargs not in (None, "?"):
                add = [v]
            ns._set(a.dest, (list(cur) if cur else []) + add)
        else:
            ns._set(a.dest, self._values(a, strings))

    def parse_known_args(self, args=None, namespace=None):
        args = list(_sys.argv[1:] if args is None else args)
        ns = namespace if namespace is not None else Namespace()
        for a in self._actions:
            if a.dest != SUPPRESS and a.default != SUPPRESS and not hasattr(ns, a.dest):
                d = a.default
                if isinstance(d, str) and a.type is not None and a.option_strings:
                    d = self._convert(a, d)
                ns._set(a.dest, d)
        for k, v in self._defaults.items():
            if not hasattr(ns, k):
                ns._set(k, v)
        extras = []
        positionals = []
        seen = set()
        i = 0
        only_positional = False
        while i < len(args):
            s = args[i]
            if not only_positional and s == "--":
                only_positional = True
                i += 1
                continue
            if only_positional or not self._is_option(s):
                positionals.append(s)
                i += 1
                continue
            name, eq, value = s.partition("=")
            a = self._find_option(name if name.startswith("--") else s[:2])
            if a is None:
                extras.append(s)
                i += 1
                continue
            seen.add(a)
            if eq and name.startswith("--"):
                if a.nargs == 0:
                    raise ArgumentError(a, "ignored explicit argument %r" % value)
                self._apply(a, ns, [value], name)
                i += 1
            elif not name.startswith("--") and len(s) > 2:
                # -xVALUE, or -vvv for flags
                if a.nargs == 0:
                    self._apply(a, ns, [], s[:2])
                    rest = "-" + s[2:]
                    args[i] = rest
                    continue
                self._apply(a, ns, [s[2:].lstrip("=")], s[:2])
                i += 1
            else:
                strings, i = self._take(a, args, i + 1)
                self._apply(a, ns, strings, s)
        pos_actions = [a for a in self._actions if not a.option_strings]
        k = 0
        for idx, a in enumerate(pos_actions):
            n = a.nargs
            later_min = sum(1 if b.nargs in (None,) else b.nargs if isinstance(b.nargs, int) else 1 if b.nargs == "+" else 0
                            for b in pos_actions[idx + 1:])
            if n is None:
                if k >= len(positionals):
                    continue
                ns._set(a.dest, self._values(a, positionals[k:k + 1]))
                seen.add(a)
                k += 1
            elif n == "?":
                if k < len(positionals) and len(positionals) - k > later_min:
                    ns._set(a.dest, self._values(a, positionals[k:k + 1]))
                    k += 1
                else:
                    ns._set(a.dest, a.default)
                seen.add(a)
            elif n in ("*", "+", "..."):
                take = max(0, len(positionals) - k - later_min)
                if n == "+" and take == 0:
                    continue
                vals = positionals[k:k + take]
                ns._set(a.dest, self._values(a, vals) if vals or n != "*" else (a.default if a.default is not None else []))
                seen.add(a)
                k += take
            else:
                if k + n > len(positionals):
                    continue
                ns._set(a.dest, self._values(a, positionals[k:k + n]))
                seen.add(a)
                k += n
        extras.extend(positionals[k:])
        missing = [a for a in self._actions if a.required and a not in seen]
        if missing:
            names = ["/".join(a.option_strings) if a.option_strings else self._metavar(a) for a in missing]
            raise ArgumentError(None, "the following arguments are required: %s" % ", ".join(names))
        return ns, extras

    def parse_args(self, args=None, namespace=None):
        try:
            ns, extras = self.parse_known_args(args, namespace)
        except ArgumentError as e:
            if not self.exit_on_error:
                raise
            self.error(str(e))
        if extras:
            self.error("unrecognized arguments: %s" % " ".join(extras))
        return ns

#!/usr/bin/env python3
"""The layering of core/: what core/CMakeLists.txt declares is what the code includes and what the
README draws.

usage: check_layers.py [--build-dir DIR]

1. Reads the fuselab_layer(NAME DEPS ...) declarations of core/CMakeLists.txt, in order: a layer
   may only depend on layers declared before it, so the graph has no cycle.
2. Every #include "core/X/..." in core/NAME/ names NAME or a layer NAME depends on (directly or
   through others). The build enforces the same with per-layer include views; this says which
   line broke it without a compile.
3. The README's layer list (between <!-- layers --> and <!-- /layers -->) says exactly the
   declared dependencies.
4. With --build-dir: the include views are the real fence. A probe that includes a header of a
   layer above (core/capture/capture.h from core/script's view) must fail to compile, and one that
   includes the layer's own header must compile.
Exit status: 0 when all hold, 1 otherwise."""
import argparse, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE = os.path.join(ROOT, 'core')


def declared():
    text = open(os.path.join(CORE, 'CMakeLists.txt')).read()
    text = re.sub(r'#.*', '', text)
    layers = []
    for m in re.finditer(r'fuselab_layer\((\w+)([^)]*)\)', text):
        words = m.group(2).split()
        deps, mode = [], None
        for w in words:
            if w in ('DEPS', 'LIBS', 'SOURCES'):
                mode = w
            elif mode == 'DEPS':
                deps.append(w)
        layers.append((m.group(1), deps))
    return layers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build-dir')
    a = ap.parse_args()
    problems = []
    layers = declared()
    if not layers:
        print('check_layers: no fuselab_layer() in core/CMakeLists.txt', file=sys.stderr)
        return 1
    closure = {}
    for name, deps in layers:
        c = {name}
        for d in deps:
            if d not in closure:
                problems.append('core/%s depends on core/%s, which is not declared before it' % (name, d))
                continue
            c |= closure[d]
        closure[name] = c
    folders = sorted(d for d in os.listdir(CORE) if os.path.isdir(os.path.join(CORE, d)))
    for folder in folders:
        path = os.path.join(CORE, folder)
        if not os.path.isdir(path):
            continue
        if folder not in closure:
            if any(f.endswith(('.cpp', '.h')) for f in os.listdir(path)):
                problems.append('core/%s has code but no fuselab_layer() declaration' % folder)
            continue
        for dirpath, _, files in os.walk(path):
            for f in sorted(files):
                if not f.endswith(('.cpp', '.h')):
                    continue
                fp = os.path.join(dirpath, f)
                for no, line in enumerate(open(fp, encoding='utf-8', errors='replace'), 1):
                    m = re.match(r'\s*#\s*include\s+"core/(\w+)/', line)
                    if m and m.group(1) not in closure[folder]:
                        problems.append('%s:%d includes core/%s, which core/%s does not depend on (declared: %s)' % (
                            os.path.relpath(fp, ROOT), no, m.group(1), folder, ', '.join(sorted(closure[folder] - {folder})) or 'nothing'))
    readme = open(os.path.join(ROOT, 'README.md')).read()
    m = re.search(r'<!-- layers -->(.*?)<!-- /layers -->', readme, re.S)
    if not m:
        problems.append('README.md has no <!-- layers --> block')
    else:
        drawn = {}
        for line in m.group(1).splitlines():
            lm = re.match(r'\s*[-|]?\s*`(\w+)`\s*(?:→|->)\s*(.*)', line)
            if lm:
                listed = lm.group(2).strip()
                listed = '' if listed.startswith('(none)') else listed.split('(')[0] # a description may follow in ( )
                drawn[lm.group(1)] = sorted(re.findall(r'`(\w+)`', listed))
        want = {n: sorted(d) for n, d in layers}
        if drawn != want:
            problems.append('README.md layer list %s differs from core/CMakeLists.txt %s' % (drawn, want))
    if a.build_dir:
        views = os.path.join(a.build_dir, 'core', 'layers')
        cxx = os.environ.get('CXX', 'c++')
        with tempfile.TemporaryDirectory() as tmp:
            def compiles(layer, header):
                probe = os.path.join(tmp, 'probe.cpp')
                with open(probe, 'w') as f:
                    f.write('#include "%s"\nint main() { return 0; }\n' % header)
                p = subprocess.run([cxx, '-std=c++20', '-fsyntax-only', '-I', os.path.join(views, layer), probe], capture_output=True, text=True)
                return p.returncode == 0, p.stderr
            ok, err = compiles('script', 'core/script/value.h')
            if not ok:
                problems.append("core/script's include view cannot compile its own header:\n" + err[-1500:])
            ok, err = compiles('script', 'core/capture/capture.h')
            if ok:
                problems.append("core/script's include view let core/capture/capture.h compile: the fence is open")
            elif 'No such file' not in err:
                problems.append('the probe failed for another reason than the fence:\n' + err[-1500:])
    for p in problems:
        print('FAIL ' + p)
    print('layers: %d declared (%s), %d problems' % (len(layers), ' '.join(n for n, _ in layers), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

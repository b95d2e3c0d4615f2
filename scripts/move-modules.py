#!/usr/bin/env python3
"""Moves TypeScript files with `git mv` and rewrites every relative import that reaches them (issue 39).

usage: scripts/move-modules.py MOVES_FILE
MOVES_FILE: one `old -> new` per line (paths from the repository root; a folder moves everything under it;
`#` starts a comment). A file's own .spec/.int-spec/.e2e-spec siblings move with it. Imports are rewritten in
src/, test/, bench/ and scripts/ (also on a branch made before the move: run it again there with the same
file; moves already done are skipped), and the moved paths are replaced in docs/ and README.md.
"""
import os, re, subprocess, sys

ROOTS = ('src/', 'test/', 'bench/', 'scripts/')
SPEC_SUFFIXES = ('.spec.ts', '.int-spec.ts', '.e2e-spec.ts')
SPECIFIER = re.compile(r"""((?:from|import|require|jest\.mock|jest\.requireActual|import\()\s*\(?\s*)(['"])(\.{1,2}/[^'"]*|\.{1,2})\2""")


def tracked():
    out = subprocess.run(['git', 'ls-files'], capture_output=True, text=True, check=True).stdout
    return set(line for line in out.splitlines() if os.path.exists(line))


def expand(moves, files):
    """Every file that moves, old path -> new path."""
    mapping = {}
    for old, new in moves:
        if old in files:
            mapping[old] = new
            stem_old, stem_new = old[:-3], new[:-3]
            for suffix in SPEC_SUFFIXES:
                if stem_old + suffix in files:
                    mapping[stem_old + suffix] = stem_new + suffix
        else:
            prefix = old.rstrip('/') + '/'
            for f in files:
                if f.startswith(prefix):
                    mapping[f] = new.rstrip('/') + '/' + f[len(prefix):]
    return mapping


def resolve(base_dir, spec, files):
    target = os.path.normpath(os.path.join(base_dir, spec))
    for candidate, kind in ((target + '.ts', 'ts'), (target + '.js', 'js'), (target + '/index.ts', 'index'), (target, 'exact')):
        if candidate in files:
            return candidate, kind
    return None, None


def specifier(from_file, target, kind):
    path = {'ts': target[:-3], 'js': target[:-3], 'index': os.path.dirname(target), 'exact': target}[kind]
    rel = os.path.relpath(path, os.path.dirname(from_file))
    return rel if rel.startswith('.') else './' + rel


def main():
    moves = []
    for line in open(sys.argv[1]):
        line = line.split('#', 1)[0].strip()
        if line:
            old, new = (part.strip() for part in line.split('->'))
            moves.append((old, new))
    files = tracked()
    mapping = {old: new for old, new in expand(moves, files).items() if old != new}
    code = [f for f in files if f.startswith(ROOTS) and f.endswith(('.ts', '.js', '.mjs'))]
    rewritten = {}
    for f in code:
        text = open(f).read()
        new_f = mapping.get(f, f)

        def rewrite(match):
            target, kind = resolve(os.path.dirname(f), match.group(3), files)
            if target is None or (target not in mapping and f not in mapping):
                return match.group(0)
            return match.group(1) + match.group(2) + specifier(new_f, mapping.get(target, target), kind) + match.group(2)

        updated = SPECIFIER.sub(rewrite, text)
        if updated != text:
            rewritten[f] = updated
    for old, new in sorted(mapping.items()):
        os.makedirs(os.path.dirname(new), exist_ok=True)
        subprocess.run(['git', 'mv', old, new], check=True)
    for f, text in rewritten.items():
        open(mapping.get(f, f), 'w').write(text)
    docs = [os.path.join('docs', d) for d in os.listdir('docs') if d.endswith('.md')] + ['README.md']
    by_length = sorted(moves, key=lambda m: -len(m[0]))
    for doc in docs:
        text = open(doc).read()
        updated = text
        for old, new in by_length:
            old_ref, new_ref = old.rstrip('/'), new.rstrip('/')
            updated = re.sub(re.escape(old_ref) + r'(?![\w.-])', new_ref, updated)
        if updated != text:
            open(doc, 'w').write(updated)
    print(f'{len(mapping)} files moved, imports rewritten in {len(rewritten)} files')


main()

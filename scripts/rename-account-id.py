#!/usr/bin/env python3
"""One name for the account id: renames the Java identifier `owner` to `accountId` where it is a
String id declared in code (parameters, locals, fields), never a record component (records are
what Jackson writes: journal events and HTTP answers keep their field names), never an accessor
call `.owner()` or a method named `owner`, never text in strings or comments (but `@param owner`).
A file is left alone when it declares a record component `owner`, an `owner` of another type, a
lambda parameter `owner`, or is one of CLASHES (a scope that already names an `accountId`). Run from the repository root;
rerunnable (a second run changes nothing)."""
import os, re, sys

CODE_ONLY = re.compile(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|/\*[\s\S]*?\*/|//[^\n]*|\'(?:\\.|[^\'\\\n])\'')
RECORD_OWNER = re.compile(r'\brecord\s+\w+\s*(?:<[^>]*>)?\s*\([^)]*\bowner\b', re.S)
DECLARED = re.compile(r'(?:^|[(,;{}\s])(?:final\s+)?([\w.<>\[\]?, ]+?)\s+owner\s*(?=[,);=:])')
LAMBDA = re.compile(r'(?:\bowner\s*->|\(\s*[^()]*\bowner\b[^()]*\)\s*->)')
CLASHES = set()
USE = re.compile(r'(?<![\w.$])owner(?![\w$(])|(?<=\bthis\.)owner(?![\w$(])')

def renamable(code):
    if RECORD_OWNER.search(code) or LAMBDA.search(code):
        return False
    types = {(m.group(1).split() or ['?'])[-1] for m in DECLARED.finditer(code)}
    return bool(types) and types == {'String'}

def rename(text):
    # rename in code, keep strings and comments (but @param owner) as they are
    out, last = [], 0
    for m in CODE_ONLY.finditer(text):
        out.append(USE.sub('accountId', text[last:m.start()]))
        out.append(re.sub(r'(@param\s+)owner\b', r'\1accountId', m.group(0)))
        last = m.end()
    out.append(USE.sub('accountId', text[last:]))
    return ''.join(out)

changed = 0
for root in ('src/main/java', 'src/test/java'):
    for dirpath, _, files in os.walk(root):
        for name in files:
            if not name.endswith('.java'):
                continue
            path = os.path.join(dirpath, name)
            if path in CLASHES:
                continue
            text = open(path).read()
            if renamable(CODE_ONLY.sub(' ', text)):
                new = rename(text)
                if new != text:
                    open(path, 'w').write(new)
                    changed += 1
print(f'{changed} files renamed', file=sys.stderr)

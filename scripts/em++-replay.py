#!/usr/bin/python3 -S
# CMake compiler launcher of the wasm build's compiles (docs/build.md, "The configure step"):
# runs the clang command em++ would run, without em++. Each em++ start costs about 0.8 CPU-seconds of
# Python before its clang starts, more than many of the build's compiles themselves. For a compile
# (`-c`), em++ runs one clang command: its own flags around ours, the file names unchanged. The
# first compile with a given set of flags goes through em++ with -v, which prints that command;
# it is kept (build/wasm-cmake/em++-replay/) with the file names as placeholders, and every later
# compile with the same flags runs it directly, with its own file names. Anything else (a link,
# no -c, a file name em++'s command does not show verbatim) goes to em++ unchanged.
# Run as: em++-replay.py /usr/bin/em++ ARGS…
import hashlib
import json
import os
import shlex
import subprocess
import sys

# the options whose value is a file of this compile, and the placeholder for each
FILE_OPTIONS = {'-o': '@OUT@', '-MT': '@DEP_TARGET@', '-MF': '@DEP_FILE@'}
# the same, with the source: the operand of -c
OPTION_FILES = {**FILE_OPTIONS, '-c': '@SOURCE@'}


def run_emxx(argv):
    os.execv(argv[0], argv)


def main():
    argv = sys.argv[1:]
    args = argv[1:]
    if '-c' not in args or '-v' in args:
        run_emxx(argv)
    # the file names of this compile: option values, and the source (the operand after -c)
    files = {}
    key_args = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in FILE_OPTIONS and i + 1 < len(args):
            files[FILE_OPTIONS[a]] = args[i + 1]
            key_args += [a, FILE_OPTIONS[a]]
            i += 2
            continue
        if a == '-c' and i + 1 < len(args) and not args[i + 1].startswith('-'):
            files['@SOURCE@'] = args[i + 1]
            key_args += [a, '@SOURCE@']
            i += 2
            continue
        key_args.append(a)
        i += 1
    if '@SOURCE@' not in files or '@OUT@' not in files:
        run_emxx(argv)
    key = hashlib.sha256()
    key.update(json.dumps([argv[0], key_args]).encode())
    # another emscripten may add other flags
    version = os.path.join(os.path.dirname(os.path.realpath(argv[0])), 'emscripten-version.txt')
    if os.path.isfile(version):
        with open(version, 'rb') as f:
            key.update(f.read())
    for a in key_args:  # a response file's content is part of the flags
        if a.startswith('@') and os.path.isfile(a[1:]):
            with open(a[1:], 'rb') as f:
                key.update(f.read())
    store = os.path.join(os.getcwd(), 'em++-replay')
    path = os.path.join(store, key.hexdigest() + '.json')
    try:
        with open(path) as f:
            template = json.load(f)
    except OSError:
        template = None
    if template is not None:
        command = [files.get(a, a) for a in template]
        os.execv(command[0], command)
    # First compile with these flags: em++ -v prints the clang command it runs, then clang's own
    # -v lines; the compile's output is the real one.
    done = subprocess.run([argv[0], '-v', *args], stderr=subprocess.PIPE, text=True)
    lines = done.stderr.splitlines()
    command = shlex.split(lines[0]) if lines and lines[0].startswith(' "') else []
    if done.returncode != 0 or not command:
        sys.stderr.write(done.stderr)
        sys.exit(done.returncode)
    # what em++ added to clang's command for -v, and clang's -v output, are not the compile's
    printed = [l for l in lines[1:] if not _clang_verbose(l)]
    if printed:
        sys.stderr.write('\n'.join(printed) + '\n')
    if command.count('-v') != 1:
        sys.exit(0)
    command.remove('-v')
    # every file name must follow its option verbatim, and appear nowhere else, for the command
    # to be replayed (-MT names the object, as -o does)
    template = list(command)
    for i in range(1, len(template)):
        placeholder = OPTION_FILES.get(template[i - 1])
        if placeholder in files and template[i] == files[placeholder]:
            template[i] = placeholder
    if sorted(a for a in template if a in files) != sorted(files) or any(a in files.values() for a in template):
        sys.exit(0)
    os.makedirs(store, exist_ok=True)
    tmp = f'{path}.{os.getpid()}'
    with open(tmp, 'w') as f:
        json.dump(template, f)
    os.replace(tmp, path)


def _clang_verbose(line):
    """Whether `line` is what clang -v prints about itself and its search paths."""
    return (
        line.startswith((' "/', 'Debian clang version', 'clang version', 'Target:', 'Thread model:',
                         'InstalledDir:', 'Found candidate', 'Selected GCC', 'Candidate multilib',
                         'Selected multilib', '#include', 'End of search list', 'ignoring ',
                         'Ubuntu clang'))
        or line.startswith(' /')
        or line.startswith(('clang -cc1 version', ' (in-process)'))
    )


if __name__ == '__main__':
    main()

"""`toolproof init`: write an adapter skeleton on the language's kit into a directory.

The skeleton is every file of toolproof/templates/<lang>/, plus a copy of the language's kit beside
it, so the adapter runs in the runtime's own environment without toolproof installed:
toolproof/adapter.py as `toolproof_adapter.py` (the Python skeleton imports `toolproof.adapter`
where it can, this copy otherwise), toolproof/adapter_kit.mjs as `adapter_kit.mjs` (the Node
skeleton imports it by relative path). Existing files are never overwritten without --force.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
from pathlib import Path

from toolproof.errors import UsageError

PACKAGE = Path(__file__).resolve().parents[1]
TEMPLATES = PACKAGE / "templates"
#: language -> (the kit's file in the package, its name in the output directory)
KITS = {
    "python": ("adapter.py", "toolproof_adapter.py"),
    "node": ("adapter_kit.mjs", "adapter_kit.mjs"),
}
#: language -> how the skeleton runs (the command after `cmd:`), given its adapter file
_COMMANDS = {
    "python": "{python} ",
    "node": "node ",
}
_ENTRY = {"python": "adapter.py", "node": "adapter.mjs"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `init` subcommand's arguments."""
    parser.add_argument("--lang", choices=sorted(KITS), required=True, help="the adapter's language")
    parser.add_argument("--output", required=True, metavar="DIR", help="the directory to write into")
    parser.add_argument("--force", action="store_true", help="overwrite files that exist")


def planned(lang: str, output: Path) -> list[tuple[Path, Path]]:
    """(source, destination) for every file init writes: the template's files, then the kit (if shipped)."""
    source = TEMPLATES / lang
    if not source.is_dir():
        raise UsageError(f"no template for --lang {lang} in this install ({source})")
    files = [
        (path, output / path.relative_to(source))
        for path in sorted(source.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    ]
    kit_file, kit_name = KITS[lang]
    if (PACKAGE / kit_file).is_file():
        files.append((PACKAGE / kit_file, output / kit_name))
    return files


def write(lang: str, output: Path, force: bool = False) -> list[Path]:
    """Copy the skeleton into `output`; refuse (UsageError) when a file exists and not `force`."""
    files = planned(lang, output)
    existing = [str(target) for _, target in files if target.exists()]
    if existing and not force:
        raise UsageError(
            "init would overwrite " + ", ".join(existing) + ": choose another --output or pass --force"
        )
    for source, target in files:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return [target for _, target in files]


def next_steps(lang: str, output: Path) -> str:
    """What to do after init: fill the TODOs, then smoke, probe and run with the right `cmd:` spec."""
    entry = output.resolve() / _ENTRY[lang]
    spec = "cmd:" + _COMMANDS[lang] + shlex.quote(str(entry))
    quoted = shlex.quote(spec)
    interpreter = {
        "python": "  ({python} is toolproof's own interpreter: where the runtime has a venv of its own,\n"
        "   put that venv's python in its place; the kit copy beside the adapter needs no toolproof)\n",
        "node": "  (the runtime's packages: `npm install` them beside the adapter, or append\n"
        "   --runtime-dir DIR to the command to load them from another directory)\n",
    }[lang]
    return (
        "next steps:\n"
        f"  1. fill in every TODO in {entry}  (grep -n 'TODO(' {shlex.quote(str(entry))})\n"
        f"  2. toolproof smoke --candidate {quoted}\n"
        f"  3. toolproof probe --candidate {quoted}  (proposes the option values the runtime behaved like)\n"
        f"  4. toolproof run --candidate {quoted} -n 2\n" + interpreter
    )


def main(args: argparse.Namespace) -> int:
    """Entry point of `toolproof init`."""
    output = Path(args.output)
    written = write(args.lang, output, force=args.force)
    for path in written:
        print(f"wrote {path}")
    if not (PACKAGE / KITS[args.lang][0]).is_file():
        print(
            f"note: this install ships no {KITS[args.lang][0]}: the skeleton needs it beside it",
            file=sys.stderr,
        )
    print(next_steps(args.lang, output), end="")
    return 0

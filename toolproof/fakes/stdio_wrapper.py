"""A launcher in front of a stdio MCP server, as `npx` or `uvx` are: the server is its child.

    python -m toolproof.fakes.stdio_wrapper -- ARG ...

starts `python ARG ...` (this interpreter) as its CHILD process, never by exec, with this
process's stdin, stdout, stderr, environment and working directory, and waits for it; it exits
with the child's status. It does not forward signals: a SIGTERM or SIGKILL sent to this process
alone ends it and leaves the child running (as a wrapper that dies before its child does). Only
a kill of the whole tree (the process group the runtime started, as the MCP SDKs do) or of the
child itself ends the server then.

`COMMAND_PREFIX` is what `stdio_server.config_entry(command_prefix=...)` puts before
`-m toolproof.fakes.stdio_server`, so that the entry's command runs the server through this
wrapper. The server reports its parent (this process) with every message
(`StdioProcess.ppid`, `parent_start`), so the harness knows both processes.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from typing import Final

MODULE: Final = "toolproof.fakes.stdio_wrapper"
COMMAND_PREFIX: Final = ("-m", MODULE, "--")
"""The arguments before `-m toolproof.fakes.stdio_server` that start the server through this wrapper."""
USAGE: Final = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Start `python ARG ...` as a child, wait for it, and return its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] != "--" or len(args) < 2:
        print(f"usage: python -m {MODULE} -- ARG ...", file=sys.stderr)
        return USAGE
    # Inherited stdin/stdout/stderr: the runtime speaks to the child through this process's pipes,
    # and this process reads none of them (so stdin EOF reaches only the child).
    child = subprocess.Popen([sys.executable, *args[1:]])
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())

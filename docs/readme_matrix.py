"""Regenerate the README's matrix excerpt from reports/matrix.md: the summary table (without capabilities) and
every requirement row where some column fails or is undecided, cells shortened as the README shows them.

Usage: python3 docs/readme_matrix.py reports/matrix.md README.md [write]
(prints whether the README already matches; rewrites the two tables with a third argument)."""
import re, sys
md_path, readme_path, write = sys.argv[1], sys.argv[2], len(sys.argv) > 3
md = open(md_path).read().splitlines()
readme = open(readme_path).read().splitlines()

def cells(line): return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]

# summary table: matrix.md's first table without the capabilities column
i = md.index(next(l for l in md if l.startswith("| runtime | implementation | capabilities")))
summary = []
for l in md[i:]:
    if not l.startswith("|"): break
    c = cells(l)
    c = [c[0].strip("*")] + c[1:2] + c[3:]
    summary.append("| " + " | ".join(c) + " |")
summary[1] = "| " + " | ".join(["---"] * len(cells(summary[0]))) + " |"
# requirement table
j = md.index(next(l for l in md if l.startswith("| requirement | level |")))
head = cells(md[j])
names = head[2:]
rows = []
for l in md[j + 2:]:
    if not l.startswith("| `tp-"): 
        if rows: break
        continue
    c = cells(l)
    rid = re.match(r"`(tp-[a-z0-9-]+)`", c[0]).group(1)
    vals = c[2:]
    out = []
    for v in vals:
        v2 = re.sub(r"(\s*\[\d+\])+$", "", v)
        if v2.startswith("**fail"):
            level = "SHOULD" if "SHOULD" in v2 else "MUST"
            v2 = "fail (expected)" if "*(expected)*" in v2 else ("fail SHOULD" if level == "SHOULD" else "fail MUST")
        out.append(v2)
    if any(x.startswith("fail") or x.startswith("undecided") for x in out):
        rows.append("| `" + rid + "` | " + " | ".join(out) + " |")
table = ["| requirement | " + " | ".join(names) + " |", "| " + " | ".join(["---"] * (len(names) + 1)) + " |"] + rows
# locate README blocks
a = readme.index(next(l for l in readme if l.startswith("| runtime | implementation | pass")))
b = a
while readme[b].startswith("|"): b += 1
c0 = readme.index(next(l for l in readme if l.startswith("| requirement | reference")))
d = c0
while d < len(readme) and readme[d].startswith("|"): d += 1
new = readme[:a] + summary + readme[b:c0] + table + readme[d:]
print("summary equal:", readme[a:b] == summary, "table equal:", readme[c0:d] == table, "rows", len(rows))
if not readme[a:b] == summary:
    for x, y in zip(readme[a:b], summary):
        if x != y: print("R", x[:150]); print("S", y[:150]); break
if not readme[c0:d] == table:
    for x, y in zip(readme[c0:d], table):
        if x != y: print("R", x[:150]); print("T", y[:150]); break
if write:
    open(readme_path, "w").write("\n".join(new) + "\n")

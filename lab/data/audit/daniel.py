"""The DAnIEL reading's counts, and how a run marks the pairs read (README.md).

    python3 lab/data/audit/daniel.py [RUNS]

daniel.jsonl holds one line per pair read ({lang, a, b, pred: the label the
run read gave it, score, label: same or different, kind, reason}). Every
duplicate pair of that run was read, so its precision is counted, not
estimated; of its similar pairs, those scoring 0.5 or more and 30 others drawn
at random. With RUNS, a folder holding one output folder per language
(RUNS/o-English/pairs.jsonl, ...), each pair read is looked up in that run too:
the counts then say how the new run marks what was read (a pair it does not
mark at all counts as "none").
"""
import collections, json, os, sys

runs = sys.argv[1] if len(sys.argv) > 1 else None
marks = {}
if runs:
    for lang in ("English", "Russian", "Greek", "Polish", "Chinese"):
        for line in open(os.path.join(runs, "o-" + lang, "pairs.jsonl")):
            p = json.loads(line)
            marks[(lang, *sorted((p["a"], p["b"])))] = p["label"]
counts = collections.Counter()
for line in open(os.path.join(os.path.dirname(__file__), "daniel.jsonl")):
    r = json.loads(line)
    pred = marks.get((r["lang"], *sorted((r["a"], r["b"]))), "none") if runs else r["pred"]
    for lang in (r["lang"], "all"):
        counts[(lang, pred, r["label"])] += 1
print(f"{'language':10s} {'marked':10s} {'same':>5s} {'different':>9s}  precision")
for lang in ("English", "Russian", "Greek", "Polish", "Chinese", "all"):
    for pred in ("duplicate", "similar", "none"):
        same, diff = counts[(lang, pred, "same")], counts[(lang, pred, "different")]
        if same + diff:
            prec = f"{same / (same + diff):.3f}" if pred == "duplicate" else ""
            print(f"{lang:10s} {pred:10s} {same:5d} {diff:9d}  {prec}")

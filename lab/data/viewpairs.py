"""Print sampled pairs for reading: python3 lab/data/viewpairs.py DOCS.jsonl SAMPLE.jsonl FROM TO [OPS]

For each pair: its number, stratum and Jaccard, both documents' dates,
titles and openings, and the word-level differences between the two texts
([words only in a | words only in b], at most OPS of them, 12 by default),
as difflib aligns them.
"""
import difflib, json, sys

docs = {}
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    docs[r["id"]] = r
pairs = [json.loads(l) for l in open(sys.argv[2])]
lo, hi = int(sys.argv[3]), int(sys.argv[4])
nops = int(sys.argv[5]) if len(sys.argv) > 5 else 12
for n, p in enumerate(pairs[lo:hi], lo):
    A, B = docs[p["a"]], docs[p["b"]]
    ta, tb = A["text"].split(), B["text"].split()
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    ops = [o for o in sm.get_opcodes() if o[0] != "equal"]
    out = ["[%s|%s]" % (" ".join(ta[i1:i2])[:100], " ".join(tb[j1:j2])[:100]) for _, i1, i2, j1, j2 in ops[:nops]]
    print("#%d %s J=%s %s~%s len %d/%d" % (n, p["stratum"], p.get("jaccard"), p["a"], p["b"], len(ta), len(tb)))
    print("  A %s | %s | %s" % (A.get("date", "")[:16], A.get("title", "")[:80], " ".join(ta[:16])))
    print("  B %s | %s | %s" % (B.get("date", "")[:16], B.get("title", "")[:80], " ".join(tb[:16])))
    print("  D", " ".join(out), "(+%d more)" % (len(ops) - nops) if len(ops) > nops else "")

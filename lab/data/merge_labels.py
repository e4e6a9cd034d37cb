"""Join a sample with the labels read for it:
python3 lab/data/merge_labels.py SAMPLE.jsonl LABELS.txt > labels.jsonl

LABELS.txt: one line per read pair, "N d|x [t|f|s]": N is the pair's
number in SAMPLE.jsonl (from 0), d = duplicate, x = different, and the
optional tag t = template, f = follow-up, s = same-story.
"""
import json, sys

TAGS = {"t": "template", "f": "follow-up", "s": "same-story"}
pairs = [json.loads(l) for l in open(sys.argv[1])]
labels = {}
for line in open(sys.argv[2]):
    f = line.split()
    if not f:
        continue
    n = int(f[0])
    if n in labels:
        sys.exit("pair %d labelled twice" % n)
    labels[n] = f[1:]
missing = [n for n in range(len(pairs)) if n not in labels]
if missing:
    sys.exit("pairs not labelled: %s" % missing[:20])
for n, p in enumerate(pairs):
    f = labels[n]
    out = {"a": p["a"], "b": p["b"], "label": {"d": "duplicate", "x": "different"}[f[0]],
           "stratum": p["stratum"], "weight": p["weight"], "jaccard": p["jaccard"]}
    if len(f) > 1:
        out["kind"] = TAGS[f[1]]
    print(json.dumps(out))

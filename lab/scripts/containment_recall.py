#!/usr/bin/env python3
"""How often minhash finds a short text reprinted whole inside a longer one.

For each N, 20 briefs of six made-up sentences, each copied whole into an article of
N other sentences (containment 1.0, Jaccard about 6/(6+N)); runs `ND dedup` (extra
arguments passed on) and counts the pairs found as duplicates.

    python3 lab/scripts/containment_recall.py ND OUTDIR [dedup flags...]
"""
import json
import os
import random
import subprocess
import sys

SYLLABLES = ["ka", "lo", "mi", "ster", "van", "pel", "dor", "qui", "zen", "bra",
             "tum", "fo", "rix", "gal", "nep", "sol", "wer", "tid", "yam", "cro"]


def sentence(rng, words=8):
    w = ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(words)]
    return " ".join(w).capitalize() + "."


def main():
    nd, out, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    for extra in (4, 8, 12, 20, 28):
        rng = random.Random(extra)
        path = os.path.join(out, f"briefs-{extra}.jsonl")
        with open(path, "w") as f:
            for i in range(20):
                brief = [sentence(rng) for _ in range(6)]
                host = [sentence(rng) for _ in range(extra // 2)] + brief + [sentence(rng) for _ in range(extra - extra // 2)]
                f.write(json.dumps({"id": f"brief{i}", "text": " ".join(brief)}) + "\n")
                f.write(json.dumps({"id": f"long{i}", "text": " ".join(host)}) + "\n")
        run = os.path.join(out, f"run-{extra}")
        subprocess.run([nd, "-q", "dedup", path, "-o", run] + flags, check=True)
        with open(os.path.join(run, "pairs.jsonl")) as f:
            found = sum(1 for line in f if json.loads(line)["label"] == "duplicate")
        print(f"6 + {extra} sentences (Jaccard ~{6 / (6 + extra):.2f}): {found} of 20 found as duplicates")


if __name__ == "__main__":
    main()

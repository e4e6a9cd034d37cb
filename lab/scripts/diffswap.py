#!/usr/bin/env python3
"""diffswap.py BBC_TAR NEARDUP [NEARDUP ...]: how often `neardup diff` counts every word of both
sides shared when two sentences (150 texts) or two paragraphs (150 texts) of a BBC story swap
places, for each binary given. Texts come from the BBC News full-text archive (bbc.tar.gz); those
too short to swap in are passed over. Seeded: the same archive gives the same pairs. Used to
measure the word alignment's moved passages:

    python3 lab/scripts/diffswap.py /work/shared/data/bbc-news-fulltext/bbc.tar.gz ./nd-old ./nd-new
"""
import json, os, random, re, subprocess, sys, tarfile, tempfile

archive, binaries = sys.argv[1], sys.argv[2:]
rng = random.Random(7)
texts = []
with tarfile.open(archive) as t:
    for m in t.getmembers():
        if m.isfile() and m.name.endswith('.txt'):
            texts.append(t.extractfile(m).read().decode('latin-1'))
        if len(texts) >= 2000:
            break
rng.shuffle(texts)
whole = {b: 0 for b in binaries}
pairs = 0
with tempfile.TemporaryDirectory() as tmp:
    a_path, b_path = os.path.join(tmp, 'a.txt'), os.path.join(tmp, 'b.txt')
    for kind, first in (('sentence', 0), ('paragraph', 500)):
        for i in range(150):
            body = [p for p in texts[first + i].split('\n') if p.strip()][1:]  # the title left out
            if kind == 'sentence':
                units, sep = re.split(r'(?<=[.!?])\s+', ' '.join(body)), ' '
                if len(units) < 6:
                    continue
            else:
                units, sep = body, '\n\n'
                if len(units) < 4:
                    continue
            x, y = rng.sample(range(len(units)), 2)
            swapped = units[:]
            swapped[x], swapped[y] = swapped[y], swapped[x]
            open(a_path, 'w').write(sep.join(units))
            open(b_path, 'w').write(sep.join(swapped))
            pairs += 1
            for b in binaries:
                d = json.loads(subprocess.run([b, 'diff', a_path, b_path, '--json'], capture_output=True,
                                              text=True, check=True).stdout)
                whole[b] += d['a']['shared'] == d['a']['words'] and d['b']['shared'] == d['b']['words']
for b in binaries:
    print(f'{b}: {whole[b]} of {pairs} pairs with every word of both sides shared')

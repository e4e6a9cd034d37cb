#!/usr/bin/env python3
"""Reuters-21578 SGML (.sgm or .sgm.gz files in a directory) to JSON Lines.

One line per story with text, as neardup reads the .sgm files: {"id": NEWID,
"title", "text", "date"}. The text is the dateline followed by the body (for
an unprocessed story, <TEXT TYPE="UNPROC">, the text of TEXT without its
title, dateline and author, marked "unprocessed": true; a brief, <TEXT
TYPE="BRIEF">, has none), as the story reads on the wire ("NEW YORK, March 3 - The Federal Reserve ..."): hard-wrapped lines
joined, an indented line starting a paragraph, paragraphs separated by a
blank line, the closing "Reuter" sign-off and control characters dropped.
The date is the <DATE> element as ISO 8601 (UTC).

    python3 sgm2jsonl.py ../shared/data/reuters21578/sgm > reuters.jsonl
"""
import datetime, glob, gzip, json, os, re, sys

def unescape(s):
    s = re.sub(r"&#\d+;", "", s)
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")

def clean(s):
    return "".join(c for c in s if c in "\n\t" or (ord(c) >= 0x20 and ord(c) != 0x7f))

def element(s, name):
    m = re.search("<%s>(.*?)</%s>" % (name, name), s, re.S)
    return m.group(1) if m else None

def body_text(body):
    paras, cur = [], []
    for line in body.replace("\r", "").split("\n"):
        t = line.strip()
        if t == "" or (line != t and line.startswith(" ")):
            if cur:
                paras.append(" ".join(cur))
                cur = []
        if t:
            cur.append(" ".join(t.split()))
    if cur:
        paras.append(" ".join(cur))
    while paras and paras[-1].strip(" -").lower() in ("", "reuter", "reuters"):
        paras.pop()
    if paras:
        p = paras[-1]
        while True:
            q = re.sub(r"\s+(Reuter|REUTER|reuter)$", "", p).strip()
            if q == p:
                break
            p = q
        paras[-1] = p
    return "\n\n".join(paras)

def date(s):
    s = s.strip().split(".")[0]
    try:
        return datetime.datetime.strptime(s, "%d-%b-%Y %H:%M:%S").strftime("%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return ""

def main(d):
    names = sorted(glob.glob(os.path.join(d, "*.sgm")) + glob.glob(os.path.join(d, "*.sgm.gz")))
    for name in names:
        opener = gzip.open if name.endswith(".gz") else open
        with opener(name, "rb") as f:
            data = f.read().decode("latin-1")
        for story in re.findall(r"<REUTERS(.*?)</REUTERS>", data, re.S):
            body = element(story, "BODY")
            unprocessed = body is None
            if unprocessed:
                m = re.search(r"<TEXT([^>]*)>(.*?)(</TEXT>|$)", story, re.S)
                if m is None or "BRIEF" in m.group(1).upper():
                    continue
                body = m.group(2)
                for name in ("TITLE", "DATELINE", "AUTHOR"):
                    body = re.sub(r"<%s>.*?</%s>" % (name, name), "", body, flags=re.S)
            text = body_text(clean(unescape(body)))
            if not text:
                continue
            newid = re.search(r'NEWID="(\d+)"', story).group(1)
            title = " ".join(clean(unescape(element(story, "TITLE") or "")).split())
            dl = " ".join(clean(unescape(element(story, "DATELINE") or "")).split())
            if dl:
                text = dl + " " + text
            rec = {"id": newid, "title": title, "text": text, "date": date(element(story, "DATE") or "")}
            if unprocessed:
                rec["unprocessed"] = True
            sys.stdout.write(json.dumps(rec, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    main(sys.argv[1])

import json, difflib, sys, re
docs={}
for l in open('reuters.jsonl'):
    r=json.loads(l); docs[r['id']]=r
lo,hi=int(sys.argv[1]),int(sys.argv[2])
S=[json.loads(l) for l in open('sample.jsonl')]
for n,s in enumerate(S[lo:hi],lo):
    A,B=docs[s['a']],docs[s['b']]
    ta,tb=A['text'].split(),B['text'].split()
    sm=difflib.SequenceMatcher(None,ta,tb,autojunk=False)
    ops=[o for o in sm.get_opcodes() if o[0]!='equal']
    out=[]
    for tag,i1,i2,j1,j2 in ops[:8]:
        out.append('[%s|%s]'%(' '.join(ta[i1:i2])[:90],' '.join(tb[j1:j2])[:90]))
    print('#%d %s %s~%s r=%.2f len %d/%d'%(n,s['stratum'],s['a'],s['b'],sm.ratio(),len(ta),len(tb)))
    print('  A %s | %s | %s'%(A['date'][:16],A['title'][:70],' '.join(ta[:14])))
    print('  B %s | %s | %s'%(B['date'][:16],B['title'][:70],' '.join(tb[:14])))
    print('  D', ' '.join(out)[:600], '(+%d more)'%(len(ops)-8) if len(ops)>8 else '')

# Draws the audit's pairs (README.md). Run in a folder holding reuters.jsonl and the
# runs r/ (default), rs/ (sentences), rc/ (cosine), b/ (BBC default): python3 sample.py > sample.jsonl
import json,re,random,tarfile,collections
SEED=20240611
def norm(t): return ' '.join(re.findall(r'[a-z0-9]+',t.lower()))
docs={}
for l in open('reuters.jsonl'):
    d=json.loads(l); docs[d['id']]=d
tf=tarfile.open('/work/shared/data/bbc-news-fulltext/bbc.tar.gz')
for m in tf.getmembers():
    if m.isfile() and m.name.endswith('.txt') and 'README' not in m.name:
        t=tf.extractfile(m).read().decode('latin-1')
        lines=t.split('\n',1)
        docs['bbc.tar.gz/'+m.name]={'id':'bbc.tar.gz/'+m.name,'title':lines[0].strip(),'text':lines[1].strip() if len(lines)>1 else ''}
json.dump(docs,open('docs.json','w'))
def stratum(p,run):
    A,B=docs[p['a']],docs[p['b']]
    if norm(A['text'])==norm(B['text']): return 'exact'
    if run=='cosine': return 'nonexact'
    return 'hi' if p['score']>=0.7 else 'lo'
# per run: number to draw per stratum (exact: census, counted without reading)
plan={'r':('minhash',{'hi':40,'lo':40}),'rs':('sentences',{'hi':10,'lo':20}),
      'rc':('cosine',{'nonexact':30}),'b':('bbc-minhash',{'hi':25,'lo':5})}
rng=random.Random(SEED)
counts={}
for d,(run,alloc) in plan.items():
    P=[json.loads(l) for l in open(d+'/pairs.jsonl')]
    P=[p for p in P if p['label']=='duplicate']
    S=collections.defaultdict(list)
    for p in P: S[stratum(p,run)].append(p)
    counts[run]={k:len(v) for k,v in S.items()}
    for k,v in S.items():
        n=alloc.get(k,0)
        if k=='exact': n=0
        for p in rng.sample(v,min(n,len(v))):
            print(json.dumps({'run':run,'stratum':k,'N':len(v),'a':p['a'],'b':p['b'],'score':p['score'],'evidence':p['evidence']}))
json.dump(counts,open('counts.json','w'),indent=1)

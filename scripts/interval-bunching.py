#!/usr/bin/env python3
# usage: scripts/interval-bunching.py DECIDING_SHARE FIRST_SEED END_SEED (docs/survey.md "Advertising interval"):
# a Python port of AdvertisingIntervalEstimate (Sources/Survey/) run on synthetic beacons whose reports a
# transport holds back ("held": 10-100 ms with probability q, else 0-8 ms; "flushed": host stalls of 20-120 ms),
# printing per interval and loss (0, 0.3, 0.6) how many estimates are right (1%), near (20%), wrong or none.
# DECIDING_SHARE 0 is the estimator without the multiples rule. The rule's 0.3 was chosen with seeds 1-100;
# the Swift tests (BunchedArrivalTests) hold out other seeds of their own generator. Tuning only: the
# product's estimator is the Swift one.
import math, random, sys, collections
SAME=0.010; SHORT=0.020
def mult(g,p): return float(int(min(g/p,1e9)+0.5))
def tol(k,p): return min(0.004+0.006*math.sqrt(k),0.35*p)
def fitted(gaps,c,check):
    p=c
    for lim in [2,4,8,16]:
        ft=fe=0
        for g in gaps:
            k=mult(g,p)
            if 1<=k<=lim and abs(g-k*p)<=tol(k,p): ft+=g; fe+=k
        if fe>0: p=ft/fe
    f=cons=ch=0; ks=[]
    for g in gaps:
        k=mult(g,p)
        if k>16: continue
        cons+=1; w=tol(max(k,1),p); ch+=min(1,2*w/p)
        if k>=1 and abs(g-k*p)<=w: f+=1; ks.append(int(k))
    if cons<0.5*len(gaps) or p<SHORT: return None,None
    bc=ch/cons
    if f<max(0.8,bc+(1-bc)/2)*cons: return None,None
    if check:
        for m in range(2,17):
            notdiv=sum(1 for k in ks if k%m)
            if notdiv < check*len(ks): return p,'unsupported'
    return p,None
def estimate(arr,check=0):
    ev=[]
    for t in arr:
        if not ev or t-ev[-1]>=SAME: ev.append(t)
    if len(ev)<=4: return None
    gaps=[b-a for a,b in zip(ev,ev[1:])]; s=sorted(gaps)
    best=None; tried=[]; rejected=[]
    for q in [0.1,0.25,0.5]:
        r=s[int((len(s)-1)*q)]
        if r in tried: continue
        tried.append(r)
        for d in range(1,13):
            c=r/d
            if c<SHORT-SAME: break
            p,why=fitted(gaps,c,check)
            if p is not None:
                if why: rejected.append(p)
                elif p>(best or 0): best=p
                break
    if best is None: return None
    if any(best < q*1.5 for q in rejected): return None
    sent=sum(max(1,int(mult(g,best))) for g in gaps)+1
    return best, 1-len(ev)/sent
def beacon(rng, P, loss, n=64):
    t=100.0; out=[]
    while len(out)<n:
        if rng.random()>=loss: out.append(t)
        t+=P+rng.uniform(0,0.010)
    return out
def held(rng, sends, q=0.15, lo=0.010, hi=0.100):
    # each report held back by the transport with probability q, else a few ms of jitter; order kept
    out=[]; last=0
    for s in sends:
        d = rng.uniform(lo,hi) if rng.random()<q else rng.uniform(0,0.008)
        a=max(s+d,last); out.append(a); last=a
    return out
def flushed(rng, sends, busy=0.3):
    # host loop stalls: while stalled (random 20-120 ms stalls covering `busy` of the time) reports queue and come out together
    out=[]; t=sends[0]-1; stalls=[]
    end=sends[-1]+1
    while t<end:
        run=rng.expovariate(1/(0.08*(1-busy)/busy)); stall=rng.uniform(0.02,0.12)
        stalls.append((t+run,t+run+stall)); t+=run+stall
    i=0
    for s in sends:
        while i<len(stalls) and stalls[i][1]<s: i+=1
        a = stalls[i][1]+rng.uniform(0,0.002) if i<len(stalls) and stalls[i][0]<=s else s+rng.uniform(0,0.002)
        out.append(max(a, out[-1] if out else a))
    return out
def run(model, P, loss, seeds, check, **kw):
    c=collections.Counter()
    for seed in seeds:
        rng=random.Random(seed*7919+int(P*1e4)+int(loss*100))
        s=beacon(rng,P,loss)
        a=model(rng,s,**kw) if model else s
        e=estimate(a,check)
        exp=P+0.005
        if e is None: c['none']+=1
        elif abs(e[0]-exp)<=max(0.01*exp,0.001): c['right']+=1
        elif abs(e[0]-exp)<=0.2*exp: c['near']+=1
        else: c['wrong']+=1
    return dict(c)
if __name__=='__main__':
    check=float(sys.argv[1]); seeds=range(int(sys.argv[2]),int(sys.argv[3]))
    for name,model,kw in [('held',held,{}),('held q.3',held,{'q':0.3}),('flushed',flushed,{}),('clean',None,{})]:
        for P in [0.02,0.05,0.1,0.2115,1.0225]:
            print(name,P,[run(model,P,l,seeds,check,**kw) for l in (0,0.3,0.6)])

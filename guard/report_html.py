"""One self-contained HTML page for a scan or a benchmark: assets inline, no server, no CDN.

Why a page: a JSONL of 200 findings is for machines; the people who must resolve them need both
statements side by side with their scope and validity, the evidence of each decision, and filters
by team, environment and tier. The findings travel inside the page as JSON and a small script
renders one page of subject groups at a time, so a store of 10k claims with hundreds of findings
stays readable and light. Filters live in the URL hash (``#tier=block&team=payments``), so a
filtered view can be linked to.
"""
from __future__ import annotations

import base64
import html
import json
from pathlib import Path

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
main{padding:16px 24px;max-width:1400px}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0 16px}.card{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 14px}
.card b{display:block;font-size:20px}.block{color:#cf222e}.warn{color:#9a6700}
table{border-collapse:collapse;background:#fff;margin:8px 0 16px}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eaeef2}.filters{display:flex;gap:12px;align-items:center;flex-wrap:wrap;background:#fff;border:1px solid #d0d7de;
border-radius:6px;padding:8px 12px;margin-bottom:12px}details.group{background:#fff;border:1px solid #d0d7de;border-radius:6px;margin:8px 0;padding:6px 12px}
details.group>summary{cursor:pointer;font-weight:600}.pair{display:grid;grid-template-columns:1fr 1fr;gap:12px;border-top:1px solid #eaeef2;padding:8px 0}
.side{background:#f6f8fa;border-radius:4px;padding:6px 8px}.meta{color:#57606a;font-size:12px}.tier{font-weight:700;text-transform:uppercase}
.evidence{grid-column:1/3;font-size:12px;color:#57606a}.pager{margin:12px 0}.pager button{margin-right:6px}
.hidden{display:none}code{font-size:12px}
"""

_JS = """
const DATA = JSON.parse(document.getElementById('findings').textContent);
const PAGE = 25; let page = 0;
function state(){const h=new URLSearchParams(location.hash.slice(1));return{tier:h.get('tier')||'',team:h.get('team')||'',env:h.get('env')||'',q:(h.get('q')||'').toLowerCase()};}
function setState(s){const h=new URLSearchParams();for(const k of ['tier','team','env','q'])if(s[k])h.set(k,s[k]);history.replaceState(null,'','#'+h.toString());}
function scopeOf(f,k){return [f.existing_scope&&f.existing_scope[k],f.incoming_scope&&f.incoming_scope[k]].filter(Boolean);}
function keep(f,s){if(s.tier&&f.tier!==s.tier)return false;
 for(const k of ['team','env']){if(!s[k])continue;const v=scopeOf(f,k);if(s[k]==='(unscoped)'?v.length>0:!v.includes(s[k]))return false;}
 if(s.q&&!(f.existing+' '+f.incoming+' '+(f.subject||'')+' '+f.reason).toLowerCase().includes(s.q))return false;return true;}
function esc(t){const d=document.createElement('div');d.textContent=t==null?'':String(t);return d.innerHTML;}
function side(text,id,scope,win){const sc=Object.entries(scope||{}).filter(([k,v])=>v).map(([k,v])=>k+'='+v).join(', ')||'everywhere';
 const w=(win&&(win.valid_from||win.valid_until))?((win.valid_from||'…')+' → '+(win.valid_until||'…')):'always';
 return '<div class="side"><div>'+esc(text)+'</div><div class="meta">'+esc(id)+' · scope: '+esc(sc)+' · valid: '+esc(w)+'</div></div>';}
function evidence(f){let e='stage <b>'+esc(f.stage)+'</b> · '+esc(f.verdict)+' ('+esc(f.confidence)+') · '+esc(f.reason);
 if(f.nli){if(f.nli.p_contradiction!=null)e+=' · p(contradiction) '+esc(f.nli.p_contradiction);if(f.nli.gates)e+=' · gates <code>'+esc(JSON.stringify(f.nli.gates))+'</code>';}
 if(f.excepted)e+=' · <b>excepted</b>: '+esc(f.excepted.by)+' was forced over it ('+esc(f.excepted.reason)+', '+esc(f.excepted.at)+')';return '<div class="evidence">'+e+'</div>';}
function render(){const s=state();for(const k of ['tier','team','env'])document.getElementById('f-'+k).value=s[k];document.getElementById('f-q').value=s.q;
 const rows=DATA.filter(f=>keep(f,s));const groups=new Map();for(const f of rows){const g=f.subject||'(no subject)';if(!groups.has(g))groups.set(g,[]);groups.get(g).push(f);}
 const keys=[...groups.keys()];const pages=Math.max(1,Math.ceil(keys.length/PAGE));page=Math.min(page,pages-1);
 let out='';for(const g of keys.slice(page*PAGE,(page+1)*PAGE)){const fs=groups.get(g);
  out+='<details class="group" open><summary>'+esc(g)+' — '+fs.length+' finding'+(fs.length>1?'s':'')+'</summary>';
  for(const f of fs){out+='<div class="pair finding" data-tier="'+esc(f.tier)+'"><div class="tier '+esc(f.tier)+'" style="grid-column:1/3">'+esc(f.tier)+'</div>'+
   side(f.existing,f.existing_id,f.existing_scope,f.existing_window)+side(f.incoming,f.incoming_id,f.incoming_scope,f.incoming_window)+evidence(f)+'</div>';}
  out+='</details>';}
 document.getElementById('list').innerHTML=out||'<p>No findings match.</p>';
 document.getElementById('shown').textContent=rows.length+' of '+DATA.length+' findings, page '+(page+1)+' of '+pages;
 document.getElementById('prev').disabled=page===0;document.getElementById('next').disabled=page>=pages-1;}
function onFilter(){page=0;setState({tier:document.getElementById('f-tier').value,team:document.getElementById('f-team').value,
 env:document.getElementById('f-env').value,q:document.getElementById('f-q').value.toLowerCase()});render();}
for(const k of ['tier','team','env'])document.getElementById('f-'+k).addEventListener('change',onFilter);
document.getElementById('f-q').addEventListener('input',onFilter);
document.getElementById('prev').addEventListener('click',()=>{page--;render();});document.getElementById('next').addEventListener('click',()=>{page++;render();});
window.addEventListener('hashchange',render);render();
"""


def _options(values: list[str], label: str) -> str:
    opts = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values)
    return f'<option value="">all {label}</option>{opts}'


def _page(title: str, body: str, script: str = "") -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width,initial-scale=1"><title>{html.escape(title)}</title><style>{_CSS}</style>'
            f'</head><body><header><h1>{html.escape(title)}</h1></header><main>{body}</main>'
            + (f"<script>{script}</script>" if script else "") + "</body></html>")


def _json_for_script(data) -> str:
    """JSON inside <script type=application/json>: '</' is escaped so no text can close the tag."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")


def scan_page(summary: dict, findings: list[dict], source: str = "") -> str:
    by_stage: dict[str, dict[str, int]] = {}
    for f in findings:
        by_stage.setdefault(f.get("stage", "?"), {"block": 0, "warn": 0})[f["tier"]] += 1
    teams = sorted({v for f in findings for k in ("existing_scope", "incoming_scope") if (v := (f.get(k) or {}).get("team"))})
    envs = sorted({v for f in findings for k in ("existing_scope", "incoming_scope") if (v := (f.get(k) or {}).get("env"))})
    cards = "".join(f'<div class="card"><b class="{c}">{html.escape(str(v))}</b>{html.escape(k)}</div>' for k, v, c in [
        ("claims", summary.get("claims", "?"), ""), ("candidate pairs", summary.get("pairs_compared", "?"), ""),
        ("block", summary.get("block", 0), "block"), ("warn", summary.get("warn", 0), "warn"),
        *([("excepted (forced)", summary["excepted"], "")] if summary.get("excepted") else []),
        ("seconds", summary.get("seconds", "?"), "")])
    stage_rows = "".join(f"<tr><td>{html.escape(st)}</td><td>{c['block']}</td><td>{c['warn']}</td></tr>"
                         for st, c in sorted(by_stage.items()))
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in summary.get("notes", []))
    body = (f'<p class="meta">{html.escape(source)}</p><div class="cards">{cards}</div>'
            f"<h2>By stage</h2><table><tr><th>stage</th><th>block</th><th>warn</th></tr>{stage_rows}</table>"
            + (f"<ul>{notes}</ul>" if notes else "")
            + '<h2>Conflicts by subject</h2><div class="filters">'
            f'<label>tier <select id="f-tier">{_options(["block", "warn"], "tiers")}</select></label>'
            f'<label>team <select id="f-team">{_options(teams + ["(unscoped)"], "teams")}</select></label>'
            f'<label>env <select id="f-env">{_options(envs + ["(unscoped)"], "envs")}</select></label>'
            '<label>search <input id="f-q" type="search" placeholder="text, subject, reason"></label>'
            '<span id="shown" class="meta"></span></div>'
            '<div class="pager"><button id="prev">← previous</button><button id="next">next →</button></div>'
            '<div id="list"></div>'
            f'<script id="findings" type="application/json">{_json_for_script(findings)}</script>')
    return _page("claim-guard scan report", body, _JS)


def bench_page(title: str, markdown_text: str, images: list[Path] = ()) -> str:
    """A benchmark's markdown report (tables and all) with its plots inlined as data URIs."""
    try:
        import markdown
    except ImportError:
        raise RuntimeError("benchmark pages need the markdown package: pip install claim-guard[bench]") from None
    body = markdown.markdown(markdown_text, extensions=["tables"])
    for img in images:
        data = base64.b64encode(Path(img).read_bytes()).decode()
        body += f'<figure><img alt="{html.escape(Path(img).stem)}" src="data:image/png;base64,{data}"></figure>'
    return _page(title, body)


def write(path: str | Path, page: str) -> Path:
    """Write through a temporary file and rename: a reader never sees half a page."""
    from guard.safe_output import atomic_write
    path = Path(path)
    with atomic_write(path) as fh:
        fh.write(page)
    return path

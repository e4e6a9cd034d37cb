package report

import "html/template"

// pageStyle is the CSS of the page around the diff tables.
const pageStyle = `*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,"DejaVu Sans",sans-serif;color:#1b1b1b;background:#fff}
header,nav,main{max-width:1500px;margin:0 auto;padding:0 24px}
header{padding-top:18px}
h1{font-size:22px;margin:0 0 8px}
h2{font-size:18px;margin:0}
nav h2{margin-top:18px}
.stats{display:flex;flex-wrap:wrap;gap:4px 18px;margin:0 0 6px;padding:0;list-style:none;color:#444}
.stats b{color:#1b1b1b}
.inputs,.note{color:#555;margin:4px 0}
.note{background:#fff6d6;border:1px solid #ecd98a;padding:4px 10px;border-radius:4px;display:inline-block}
.nd-legend{color:#444;font-size:13px;margin:8px 0 0}
.nd-legend .nd-a{background:#ffd4d1}.nd-legend .nd-b{background:#c8f0cf}
.nd-legend .nd-a-spelt{background:#ffeeec;text-decoration:underline dotted #d9534f}.nd-legend .nd-b-spelt{background:#e8f7eb;text-decoration:underline dotted #3c9a4c}
table.toc{border-collapse:collapse;margin:8px 0 24px;font-size:14px;width:auto;min-width:50%}
table.toc th,table.toc td{text-align:left;padding:3px 10px;border-bottom:1px solid #e4e4e4;vertical-align:top}
table.toc th{background:#f2f2f2;white-space:nowrap}
table.toc td{overflow-wrap:anywhere}
table.toc td.n{text-align:right;white-space:nowrap}
section.cluster{border-top:3px solid #3a6ea5;margin:0 0 28px;padding-top:10px}
.why{color:#555;margin:2px 0 8px}
.doc{margin:0 0 8px;overflow-wrap:anywhere}
.doc .id{font-weight:700}
.meta{color:#666;font-size:13px}
.meta a{color:#3a6ea5}
details{border:1px solid #ddd;border-radius:4px;margin:0 0 10px}
details>summary{cursor:pointer;padding:6px 10px;background:#fafafa;overflow-wrap:anywhere}
details[open]>summary{border-bottom:1px solid #ddd}
.missing{color:#a33}
details>p{margin:8px 10px}
.more{color:#666;font-style:italic}
.top{font-size:13px}`

// page is the report's HTML template. html/template escapes every value by
// its context (text, attribute, URL); only the diff tables, which package
// diff escapes itself, are inserted as HTML.
var page = template.Must(template.New("report").Funcs(template.FuncMap{"plural": plural}).Parse(pageStart +
	`<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
{{.CSS}}
</style>
</head>
<body id="top">
<header>
<h1>{{.Title}}</h1>
<ul class="stats">{{range .Stats}}<li>{{.Label}} <b>{{.Value}}</b></li>{{end}}</ul>
{{- if .Inputs}}
<p class="inputs">Input: {{.Inputs}}</p>
{{- end}}
{{- if .Note}}
<p class="note">{{.Note}}{{if .More}} {{.More}}{{end}}</p>
{{- end}}
{{.Legend}}
</header>
<nav>
<h2>Clusters</h2>
{{- if not .Clusters}}
<p>No clusters: no two documents were found to be duplicates.</p>
{{- else}}
<table class="toc">
<thead><tr><th>#</th><th>Representative</th><th>Documents</th><th>Members' words shared with it</th></tr></thead>
<tbody>
{{- range .Clusters}}
<tr><td class="n"><a href="#c{{.ID}}">{{.ID}}</a></td><td><a href="#c{{.ID}}">{{template "label" .Rep}}</a></td><td class="n">{{.Size}}</td><td class="n">{{.Shared}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
</nav>
<main>
{{- range .Clusters}}
<section class="cluster" id="c{{.ID}}">
<h2>Cluster {{.ID}} · {{.Size}} documents</h2>
{{- if .Why}}
<p class="why">Representative chosen: {{.Why}}</p>
{{- end}}
<div class="doc">Representative: {{template "doc" .Rep}}</div>
{{- range .Members}}
<details{{if .Open}} open{{end}}>
<summary>{{template "doc" .Doc}}{{if .Shared}} — {{.Shared}} of its words in the representative, {{.RepShared}} of the representative's in it{{end}}</summary>
{{- with .Link}}
{{- if .Other}}
<p class="joined">Joined as {{.Before}}<bdi>{{.Other}}</bdi>{{.After}}</p>
{{- else if .Joined}}
<p class="joined">Joined: <bdi>{{.Joined}}</bdi></p>
{{- end}}
{{- if .Reason}}
<p class="reason">{{.Reason}}</p>
{{- end}}
{{- end}}
{{- if .Diff}}
{{.Diff}}
{{- else}}
<p class="missing">No diff: the text of this document or of the representative was not collected.</p>
{{- end}}
</details>
{{- end}}
{{- if .Hidden}}
<p class="more">{{.Hidden}} more {{plural .Hidden "member" "members"}} not shown.{{if $.More}} {{$.More}}{{end}}</p>
{{- end}}
<p class="top"><a href="#top">↑ contents</a></p>
</section>
{{- end}}
</main>
</body>
</html>
{{define "label"}}<bdi>{{if .Title}}{{.Title}}{{else}}{{.ID}}{{end}}</bdi>{{end}}
{{- define "doc"}}<bdi class="id">{{.ID}}</bdi>{{if .Title}} <bdi>{{.Title}}</bdi>{{end}}
{{- if or .Meta .URL .Missing}} <span class="meta">
{{- .Meta}}{{if and .Meta .URL}} · {{end}}{{if .Link}}<a href="{{.URL}}"><bdi>{{.URL}}</bdi></a>{{else if .URL}}<bdi>{{.URL}}</bdi>{{end}}
{{- if .Missing}}<span class="missing">text not available</span>{{end}}</span>
{{- end}}
{{- end}}`))

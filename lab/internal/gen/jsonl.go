package gen

import "github.com/neardup/neardup/internal/jsonenc"

// appendDoc appends d with text as its Text as one JSON line: what
// encoding/json writes with HTML escaping off, made without reflection.
func appendDoc(b []byte, d *DocRecord, text []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonenc.AppendString(b, d.ID)
	b = append(b, `,"title":`...)
	b = jsonenc.AppendString(b, d.Title)
	b = append(b, `,"text":`...)
	b = jsonenc.AppendString(b, text)
	b = append(b, `,"source":`...)
	b = jsonenc.AppendString(b, d.Source)
	b = append(b, `,"url":`...)
	b = jsonenc.AppendString(b, d.URL)
	b = append(b, `,"date":`...)
	b = jsonenc.AppendString(b, d.Date)
	return append(b, "}\n"...)
}

// appendTruth appends t as one JSON line.
func appendTruth(b []byte, t *TruthRecord) []byte {
	b = append(b, `{"id":`...)
	b = jsonenc.AppendString(b, t.ID)
	b = append(b, `,"cluster":`...)
	b = jsonenc.AppendString(b, t.Cluster)
	b = append(b, `,"base":`...)
	b = jsonenc.AppendString(b, t.Base)
	b = append(b, `,"ops":[`...)
	for i, op := range t.Ops {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonenc.AppendString(b, string(op))
	}
	b = append(b, ']')
	if t.NegativeOf != "" {
		b = append(b, `,"negative_of":`...)
		b = jsonenc.AppendString(b, t.NegativeOf)
	}
	return append(b, "}\n"...)
}
